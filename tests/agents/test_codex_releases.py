"""Codex 0.171.0 live: ``codex@0.171.0`` renders exactly what that release sends.

0.171.0 changed no listing rule but its model catalogue: the default model is gpt-6.2-sol
with a 500,000-token window (0.169.0: gpt-6.1-sol, 272,000), and gpt-6.1-sol grew to
500,000. At 2% of the window the listing gets 10,000 tokens instead of 5,440. The CLI is
found through ``SKILLBENCH_CODEX_0_171_0_BIN``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.catalog import SourceSpec
from tests.support.agents import identical_at, needs_agent

NEWEST = "0.171.0"
CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")
DEVTOOLS = Path(__file__).parents[2] / "datasets" / "devtools" / "skills"


def _identical(sources: list[SourceSpec], **capture: object) -> str:
    return identical_at("codex", NEWEST, sources, **capture).listing


def _tokens(listing: str) -> int:
    """What the entry lines cost as Codex counts: UTF-8 bytes / 4 rounded up, per line
    with its newline."""
    lines = [line for line in listing.splitlines() if "(file: " in line]
    return sum(-(-len((line + "\n").encode()) // 4) for line in lines)


@needs_agent("codex", NEWEST)
@pytest.mark.slow
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("codex", NEWEST)
def test_the_default_model_has_a_500k_window(shared_data: Path) -> None:
    """wshobson-agents overflows both releases: 0.171.0 fills 10,000 tokens, past what
    0.169.0's 5,440 could hold."""
    listing = _identical([SourceSpec(str(shared_data / "catalogs" / "wshobson-agents"), "project")])
    assert 9_900 < _tokens(listing) <= 10_000


@needs_agent("codex", NEWEST)
@pytest.mark.slow
def test_all_catalogs_together(shared_data: Path) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs"), "project")])


@needs_agent("codex", NEWEST)
def test_bundled_benchmark_over_project_user_and_plugin() -> None:
    _identical([SourceSpec(str(DEVTOOLS / kind), kind) for kind in ("project", "user", "plugin")])


@needs_agent("codex", NEWEST)
@pytest.mark.parametrize(
    ("model", "tokens"),
    [("gpt-6.1-sol", 10_000), ("gpt-daybreak-red-latest", 7_440), ("no-such-model", 5_440)],
)
def test_the_models_window_sets_the_budget(shared_data: Path, model: str, tokens: int) -> None:
    """-m picks the window from 0.171.0's catalogue (gpt-6.1-sol: 500,000 there, 272,000 in
    0.169.0; gpt-daybreak-red-latest: 372,000); a name it does not know gets 272,000."""
    sources = [SourceSpec(str(shared_data / "catalogs" / "wshobson-agents"), "project")]
    listing = _identical(sources, model=model)
    assert tokens - 100 < _tokens(listing) <= tokens
