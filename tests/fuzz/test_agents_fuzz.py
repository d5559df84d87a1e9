"""Fuzzing the installed CLIs: a deliberately broken profile is caught and shrunk to a
catalog of at most 3 skills, and a small fixed-seed sample runs on every installed agent."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from skillbench.agents import installed_agents
from skillbench.agentspec import AGENT_SPECS, AgentSpec
from skillbench.fuzz import (
    FuzzSettings,
    fuzz_catalogs,
    generate_case,
    generate_cases,
    pack_cases,
)

BROKEN = "copilot-cli"
"""An agent whose record names each scope in its elements (the user scope's word is what is
broken: its own built-in skills are unaffected, so only user skills differ)."""


@contextmanager
def patched(name: str, spec: AgentSpec) -> Iterator[None]:
    original = AGENT_SPECS.remove(name)
    try:
        with AGENT_SPECS.temporarily(name, spec):
            yield
    finally:
        AGENT_SPECS.register(name)(original)


def _installed(name: str):
    found = [one for one in installed_agents([name]) if one.version is not None]
    assert found, f"{name} is not installed"
    return found[0]


@pytest.mark.agents(BROKEN)
def test_a_broken_escape_is_caught_and_shrunk(tmp_path: Path) -> None:
    spec = AGENT_SPECS.get(BROKEN)
    assert spec.listing is not None and spec.listing.locations["user"] == "user"
    shapes = ["yaml:plain", "name:dots", "name:upper", "file:xml-chars", "yaml:literal"] * 4
    cases = [generate_case(spec, i, s, random.Random(i)) for i, s in enumerate(shapes)]
    catalogs = pack_cases(spec, cases)
    assert len(catalogs) == 1
    assert {u.scope for u in catalogs[0].units} == {"project", "user"}
    locations = {**spec.listing.locations, "user": "personal"}
    broken = replace(spec, listing=replace(spec.listing, locations=locations))
    settings = FuzzSettings(len(cases), 0, tmp_path, shrink_tries=40)
    installed = _installed(BROKEN)
    with patched(BROKEN, broken):
        result = fuzz_catalogs(installed, catalogs, settings, lambda _: None)
    assert result.errors == ()
    assert len(result.differences) == 1
    found = result.differences[0]
    assert found.skills is not None and 1 <= found.skills <= 3
    folder = Path(str(found.reproducer))
    assert "skillbench fidelity --agent copilot-cli" in (folder / "README.md").read_text()
    diff = (folder / "diff.txt").read_text()
    assert "-  <location>user</location>" in diff
    assert "+  <location>personal</location>" in diff
    with_skill = list((folder / "catalog").rglob("SKILL.md"))
    assert 1 <= len(with_skill) <= 3


@pytest.mark.parametrize(
    "agent", [pytest.param(n, marks=pytest.mark.agents(n)) for n in AGENT_SPECS.names()]
)
def test_a_fixed_seed_sample_runs(agent: str, tmp_path: Path) -> None:
    spec = AGENT_SPECS.get(agent)
    cases = [c for c in generate_cases(spec, 16, 1) if not c.alone]
    catalogs = pack_cases(spec, cases)
    settings = FuzzSettings(len(cases), 1, tmp_path, shrink_limit=1, shrink_tries=15)
    result = fuzz_catalogs(_installed(agent), catalogs, settings, lambda _: None)
    assert result.errors == ()
    assert result.catalogs == len(catalogs) >= 1
    assert result.skills >= len(cases)
    for difference in result.differences:
        assert Path(str(difference.reproducer), "README.md").is_file()
