"""Codex 0.169.0 live: the codex profile's render equals the skills block Codex really sends.

Each test lays a catalog out where Codex looks, runs one offline turn against the loopback
recorder, then renders the same sources with the folders that capture used as the roots
table's roots and the capture's snapshot for Codex's system skills, and compares the two
byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.agents import Capture, capture_agent
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.listing import render_listing
from tests.support.agents import needs_agent

SKILL = "---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"
CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _render(cap: Capture, sources: list[SourceSpec], **options: object) -> str:
    roots = {
        "project": str(cap.project / ".agents" / "skills"),
        "user": str(cap.home / ".agents" / "skills"),
        "plugin": str(cap.home / ".codex" / "skills"),
        "bundled": str(cap.home / ".codex" / "skills" / ".system"),
    }
    catalog = load_catalog(sources, profile="codex")
    listing = render_listing(
        catalog.skills,
        profile="codex",
        options={"roots": roots, "snapshot": cap.snapshot, **options},
    )
    return listing.text


def _check(tmp_path: Path, sources: list[SourceSpec], **options: object) -> Capture:
    cap = capture_agent("codex", sources, workdir=tmp_path / "w")
    assert cap.version == "0.169.0"
    assert cap.snapshot is not None
    assert _render(cap, sources, **options) == cap.listing
    return cap


def _skills(root: Path, **descriptions: str) -> Path:
    for name, description in descriptions.items():
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(SKILL.format(name=name, description=description))
    return root


@needs_agent("codex")
def test_two_skills(tmp_path: Path) -> None:
    skills = _skills(tmp_path / "s", **{"zeta-tool": "Zeta things.", "db-migrate": "Migrate."})
    cap = _check(tmp_path, [SourceSpec(str(skills), "project")])
    assert cap.listing.endswith(
        "- db-migrate: Migrate. (file: r1/db-migrate/SKILL.md)\n"
        "- zeta-tool: Zeta things. (file: r1/zeta-tool/SKILL.md)\n</skills_instructions>"
    )


@needs_agent("codex")
@pytest.mark.slow
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(tmp_path: Path, shared_data: Path, name: str) -> None:
    _check(tmp_path, [SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("codex")
@pytest.mark.slow
def test_all_four_catalogs_overflow(tmp_path: Path, shared_data: Path) -> None:
    """Over 240 skills with long paths: even bare lines pass 5,440 tokens, so every entry
    is a bare name and the last ones are left out."""
    sources = [SourceSpec(str(shared_data / "catalogs"), "project")]
    assert len(load_catalog(sources, profile="codex").skills) >= 240
    cap = _check(tmp_path, sources)
    entries = [line for line in cap.listing.splitlines() if "(file: " in line]
    assert all(": (file: " in line for line in entries) and len(entries) < 240 + 4


@needs_agent("codex")
@pytest.mark.slow
def test_names_only_then_omitted_with_a_small_window(tmp_path: Path, shared_data: Path) -> None:
    """A 100,000-token window leaves 2,000 tokens: names only, then skills left out."""
    sources = [SourceSpec(str(shared_data / "catalogs"), "project")]
    cap = capture_agent(
        "codex", sources, settings={"model_context_window": 100_000}, workdir=tmp_path / "w"
    )
    assert _render(cap, sources, context_window=100_000) == cap.listing
    assert ": (file: " in cap.listing and cap.listing.count("(file: ") < 240


@needs_agent("codex")
@pytest.mark.slow
def test_bundled_benchmark_over_project_user_and_plugin(tmp_path: Path) -> None:
    root = Path(__file__).parents[2] / "datasets" / "devtools" / "skills"
    sources = [SourceSpec(str(root / kind), kind) for kind in ("project", "user", "plugin")]
    _check(tmp_path, sources)
