"""The real public catalogs and the MetaTool tool list load completely, fast and without errors."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from skillbench.catalog import PRECEDENCE, load_catalog

COUNTS = {"anthropics-skills": 12, "mattpocock": 41, "superpowers": 14, "wshobson-agents": 181}


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_real_catalog_loads_every_skill(shared_data: Path, name: str) -> None:
    catalog = load_catalog([str(shared_data / "catalogs" / name)])
    assert len(catalog.skills) == COUNTS[name]
    assert not catalog.errors
    assert not catalog.overrides
    assert all(s.description and s.path and s.source == "project" for s in catalog.skills)
    assert all(catalog.get(s.name) is s for s in catalog.skills)


def test_every_profile_loads_every_catalog(shared_data: Path) -> None:
    """Every skill loads under every profile: Codex 0.169.0 too lists anthropics-skills'
    claude-api, whose description is over 1,024 characters (cut in its listing, a capture
    showed), so only a warning names it."""
    roots = sorted(str(p) for p in (shared_data / "catalogs").iterdir() if p.is_dir())
    for profile in PRECEDENCE.names():
        catalog = load_catalog(roots, profile=profile)
        assert len(catalog.skills) == sum(COUNTS.values())
        assert not catalog.errors


def test_mattpocock_disabled_skills_are_flagged(shared_data: Path) -> None:
    catalog = load_catalog([str(shared_data / "catalogs" / "mattpocock")])
    disabled = [s for s in catalog.skills if catalog.status(s) == "disabled"]
    on_disk = sum(
        "disable-model-invocation: true" in p.read_text()
        for p in (shared_data / "catalogs" / "mattpocock").rglob("SKILL.md")
    )
    assert len(disabled) == on_disk == 24
    assert all(not s.model_invocable for s in disabled)
    assert len(catalog.model_invocable) == 41 - 24


def test_long_description_is_a_warning_not_a_skip(shared_data: Path) -> None:
    catalog = load_catalog([str(shared_data / "catalogs" / "anthropics-skills")])
    [warning] = catalog.diagnostics
    assert warning.severity == "warning" and warning.field == "description"
    assert warning.path.endswith("claude-api/SKILL.md") and warning.line == 3
    assert len(catalog.get("claude-api").description) > 1024  # type: ignore[union-attr]


def test_wshobson_loads_well_under_a_second(shared_data: Path) -> None:
    start = time.perf_counter()
    catalog = load_catalog([str(shared_data / "catalogs" / "wshobson-agents")])
    assert time.perf_counter() - start < 1.0
    assert len(catalog.skills) == 181
    assert sum(len(s.description) for s in catalog.skills) > 40_000


def test_metatool_tool_list(shared_data: Path) -> None:
    catalog = load_catalog([f"extra={shared_data / 'metatool-dev' / 'tools.jsonl'}"])
    assert len(catalog.skills) == 199
    assert not catalog.diagnostics and not catalog.overrides
    abc = catalog.get("abcmouse")
    assert abc is not None and abc.name == "ABCmouse" and abc.source == "extra"
    assert abc.description.startswith("Provides fun and educational")
