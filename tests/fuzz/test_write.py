"""A catalog is written as its agent will find it, and a reproducer's command names it."""

from __future__ import annotations

import os
import random
from pathlib import Path

from skillbench.agentspec import AGENT_SPECS
from skillbench.fuzz import FuzzCatalog, fidelity_command, generate_case


def test_layouts_are_written_with_their_links(tmp_path: Path) -> None:
    spec = AGENT_SPECS.get("codex")
    units = [
        u
        for i, shape in enumerate(["layout:symlink", "layout:symlink-outside", "file:bom"])
        for u in generate_case(spec, i, shape, random.Random(i)).units
    ]
    sources = FuzzCatalog("t", tuple(units)).write(tmp_path)
    assert {s.kind for s in sources} <= {"project", "user", "plugin"}
    links = sorted((p for p in tmp_path.rglob("*") if p.is_symlink()), key=lambda p: p.name)
    assert [p.name for p in links] == ["f000-link", "f001-link"]
    assert all((p / "SKILL.md").is_file() for p in links)
    assert os.readlink(links[1]).startswith("../store-f001/")
    bom = next(tmp_path.rglob("f002-bom/SKILL.md")).read_bytes()
    assert bom.startswith("\ufeff---\n".encode())


def test_the_command_carries_environment_and_usage() -> None:
    catalog = FuzzCatalog("t", (), {"BUDGET_VAR": "120"}, {"f001-x y": 3})
    command = fidelity_command("claude-code", catalog, ["user=catalog/user"])
    assert command == (
        "skillbench fidelity --agent claude-code --env BUDGET_VAR=120 "
        "--usage 'f001-x y=3' user=catalog/user"
    )
