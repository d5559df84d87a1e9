"""An agent is one module: registering its profile is all the catalog, CLI and lint need."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from skillbench.catalog import PRECEDENCE, load_catalog
from skillbench.listing import PROFILES, register_profile, render_listing

TOY = """
from dataclasses import replace
from skillbench.listing import PROFILES, register_profile
base = PROFILES.get("openharness")
rules = replace(base.precedence, name="toy-agent")
register_profile(replace(base, name="toy-agent", precedence=rules))
from skillbench.cli._main import main
raise SystemExit(main(["{command}", "--profile", "toy-agent", "{skills}"]))
"""


def _skills(tmp_path: Path) -> Path:
    folder = tmp_path / "skills" / "pdf-tools"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: pdf-tools\ndescription: PDF work.\n---\nBody.\n")
    return tmp_path / "skills"


def test_a_registered_profile_loads_catalogs_by_its_name(tmp_path: Path) -> None:
    base = PROFILES.get("openharness")
    toy = replace(base, name="toy-agent", precedence=replace(base.precedence, name="toy-agent"))
    with (
        PROFILES.temporarily("toy-agent", toy),
        PRECEDENCE.temporarily("toy-agent", toy.precedence),
    ):
        catalog = load_catalog([str(_skills(tmp_path))], profile="toy-agent")
        listing = render_listing(catalog.skills, profile="toy-agent")
    assert listing.shown_names == ("pdf-tools",)


def test_register_profile_also_registers_its_loading_rules(tmp_path: Path) -> None:
    """In a fresh process, so the toy agent never leaks into this one's registries."""
    for command in ("render", "catalog", "lint"):
        code = TOY.format(command=command, skills=_skills(tmp_path / command))
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)
        assert ("pdf-tools" if command != "lint" else "profiles toy-agent") in done.stdout


def test_every_profile_name_resolves_to_its_own_loading_rules() -> None:
    for name in PROFILES.names():
        assert PRECEDENCE.get(name) is PROFILES.get(name).precedence
    assert callable(register_profile)
