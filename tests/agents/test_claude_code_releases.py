"""Claude Code 2.1.332 live: its listing rules are 2.1.328's, and ``claude-code@2.1.332``
renders exactly what it sends. The CLI is found through
``SKILLBENCH_CLAUDE_CODE_2_1_332_BIN``."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.catalog import SourceSpec
from tests.support.agents import identical_at, needs_agent

NEWEST = "2.1.332"
CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")
DEVTOOLS = Path(__file__).parents[2] / "datasets" / "devtools" / "skills"


def _identical(sources: list[SourceSpec], **capture: object) -> None:
    identical_at("claude-code", NEWEST, sources, **capture)


@needs_agent("claude-code", NEWEST)
@pytest.mark.slow
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("claude-code", NEWEST)
def test_all_catalogs_overflow_the_budget(shared_data: Path) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs"), "project")])


@needs_agent("claude-code", NEWEST)
def test_bundled_benchmark_over_project_and_user() -> None:
    _identical([SourceSpec(str(DEVTOOLS / kind), kind) for kind in ("project", "user")])
