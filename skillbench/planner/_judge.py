"""A trim plan judged by replay: the catalog as it is and the trimmed copy, over the same
requests, with the same selectors, at the target budget and with room for everything.

At the target, trimmed against as-is says whether the edits win back what the budget cut;
with room for everything, trimmed against the full text says what the edits themselves cost.
A plan that costs accuracy beyond noise there (exact McNemar at ``ALPHA``, the loss larger
than the gain) is reported, not proposed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from skillbench.authoring import (
    CatalogCopy,
    ReplayedDecision,
    Source,
    TunePaired,
    Unwanted,
    compare_paired,
    replay_catalog,
)
from skillbench.catalog import SourceSpec
from skillbench.planner._records import Judged
from skillbench.planner._setup import UNLIMITED, Setup
from skillbench.types import CELL_FIELDS, JsonValue

if TYPE_CHECKING:
    from skillbench.replay import RunConfig

ALPHA = 0.05
SELECTORS: tuple[str, ...] = ("embedding", "lexical")
"""Selectors a plan is judged with: the packaged embedding model and BM25, both offline."""
_BUDGET = CELL_FIELDS.index("budget")
_SELECTOR = CELL_FIELDS.index("selector")


class Verdict(NamedTuple):
    proposed: bool
    reason: str


class Judging(NamedTuple):
    """What the judge replays: requests, the selectors, the working folder for paths
    skills and a seed for the bootstrap."""

    requests: Path
    work: Path
    selectors: Sequence[str] = SELECTORS
    cwd: str | None = None
    seed: int = 0


def trimmed_copy(
    setup: Setup, sources: Sequence[SourceSpec], edits: Mapping[str, str], root: Path
) -> CatalogCopy:
    """The sources copied under ``root`` with ``edits`` written into their files."""
    copy = CatalogCopy([Source(Path(s.path), s.kind) for s in sources], root)
    copy.apply(edits, {s.name: s for s in setup.catalog.skills})
    return copy


def _config(
    setup: Setup, sources: Sequence[SourceSpec], target: int, judging: Judging
) -> RunConfig:
    from skillbench.replay import RunConfig, SelectorConfig, SourceConfig

    options: dict[str, JsonValue] = {
        k: v
        for k, v in setup.options.items()
        if k != "budget" and isinstance(v, str | int | float | bool | dict)
    }
    return RunConfig(
        name="plan-judge",
        catalogs={"base": [SourceConfig(path=s.path, source=s.kind) for s in sources]},
        requests=str(judging.requests),
        profiles=[setup.profile.name],
        profile_options={setup.profile.name: options},
        budgets=[target, UNLIMITED],
        orderings=[setup.profile.ordering],
        selectors=[SelectorConfig(type=t) for t in judging.selectors],
        cwd=judging.cwd,
        seed=judging.seed,
    )


def _cells(decisions: Sequence[ReplayedDecision]) -> dict[tuple[str, str], list[ReplayedDecision]]:
    out: dict[tuple[str, str], list[ReplayedDecision]] = {}
    for d in decisions:
        parts = d.cell.split("/")
        out.setdefault((parts[_SELECTOR], parts[_BUDGET]), []).append(d)
    return out


def judge(
    setup: Setup,
    sources: Sequence[SourceSpec],
    copy: CatalogCopy,
    target: int,
    judging: Judging,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Judged]:
    """Replay both catalogs at ``target`` and unlimited; one comparison per selector and
    budget."""
    config = _config(setup, sources, target, judging)
    base_pairs = [(s.path, s.kind) for s in sources]
    progress("replaying the catalog as it is")
    base = replay_catalog(config, base_pairs, judging.requests, judging.work / "as-is")
    progress("replaying the trimmed catalog")
    trimmed = replay_catalog(
        config,
        copy.source_pairs(),
        judging.requests,
        judging.work / "trimmed-run",
    )
    before, after = _cells(base), _cells(trimmed)
    out = []
    for (selector, budget), cell in sorted(before.items()):
        ids = sorted({d.request_id for d in cell})
        p = compare_paired(cell, after.get((selector, budget), []), ids, judging.seed)
        label: Literal["target", "unlimited"] = (
            "unlimited" if budget == str(UNLIMITED) else "target"
        )
        unwanted = Unwanted(
            base=sum(d.unwanted for d in cell),
            tuned=sum(d.unwanted for d in after.get((selector, budget), [])),
        )
        out.append(Judged(selector=selector, budget=label, stats=TunePaired.of(p, unwanted)))
    return out


def verdict(fits: bool, judged: Sequence[Judged]) -> Verdict:
    """Propose a plan that fits and costs nothing beyond noise with room for everything."""
    if not fits:
        return Verdict(False, "no trim fits: the names alone overflow this budget")
    if not judged:
        return Verdict(False, "not judged: give --requests (a requests file) to replay it")
    costly = [
        j
        for j in judged
        if j.budget == "unlimited" and j.stats.p_value < ALPHA and j.stats.worse > j.stats.better
    ]
    if costly:
        worst = min(costly, key=lambda j: j.stats.gain)
        return Verdict(
            False,
            f"costs accuracy beyond noise with room for everything ({worst.selector}: "
            f"{worst.stats.gain:+.3f}, p = {worst.stats.p_value:.3g})",
        )
    return Verdict(True, "fits, and with room for everything costs nothing beyond noise")
