"""What ``compare`` and ``check`` share: reading a run, scoring its requests, the paired test.

Both commands answer the same question ("is B worse than A on these requests?"), so they go
through the same functions here. A run directory is read only here (``read_finished_run``,
``cell_rows``) and metric names are resolved by ``find_metric``; each request becomes
one score (its repeats pooled: one cluster, one vote), and the scores are tested and resampled
by the same code. Two commands that disagree on one suite would mean one of them is wrong.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.metrics import (
    Bootstrap,
    McNemar,
    Metric,
    Resolution,
    is_regression,
    paired_bootstrap,
    resolution,
    sign_test,
)
from skillbench.results import ResultRow, Run, read_run
from skillbench.types import UNANSWERED

DEFAULT_MAX_DROP = 0.02
"""The tolerance both commands use unless told otherwise (absolute, in the metric's units)."""
DEFAULT_ALPHA = 0.05


def read_finished_run(path: str | Path) -> Run:
    """A run directory to pair or gate; a run that did not finish is an error, not a result."""
    run = read_run(path)
    if run.status != "complete":
        reason = run.manifest.stop_reason if run.manifest is not None else None
        raise SkillbenchError(
            f"{run.path}: the run is {run.status}"
            + (f" ({reason})" if reason else "")
            + "; finish it (skillbench run CONFIG --resume) before comparing or gating it"
        )
    return run


def scored_rows(rows: Iterable[ResultRow], m: Metric) -> list[ResultRow]:
    """The rows ``m`` counts: inside its denominator, and decisions that completed."""
    return [
        r
        for r in rows
        if r.outcome not in UNANSWERED and m.applies(r)  # type: ignore[misc]
    ]


def request_scores(rows: Iterable[ResultRow], m: Metric) -> dict[str, float]:
    """Each request's score for ``m``: the share of its counted repeats that hit.

    A request with no counted row has no score (rather than a score of 0).
    """
    hits: dict[str, list[bool]] = defaultdict(list)
    for row in scored_rows(rows, m):
        hits[row.request_id].append(bool(m.hit(row)))  # type: ignore[misc]
    return {rid: sum(h) / len(h) for rid, h in hits.items()}


def require_same_requests(label: str, a: Iterable[str], b: Iterable[str], fix: str) -> None:
    """Raise unless both sides scored the same requests (a paired test needs every pair)."""
    sa, sb = set(a), set(b)
    if sa == sb:
        return
    parts = [
        f"{len(ids)} only in {side} ({', '.join(ids[:5])}{', …' if len(ids) > 5 else ''})"
        for side, ids in (("A", sorted(sa - sb)), ("B", sorted(sb - sa)))
        if ids
    ]
    raise SkillbenchError(f"{label}: unpaired requests: {'; '.join(parts)}; {fix}")


def count(n: int, noun: str) -> str:
    """``1 request``, ``2 requests``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def family_alpha(alpha: float, tests: int) -> float:
    """The per-test level when ``tests`` tests share ``alpha`` (Bonferroni)."""
    if not 0 < alpha < 1:
        raise SkillbenchError(f"alpha must be in (0, 1), got {alpha}")
    return alpha / max(tests, 1)


class PairedStats(NamedTuple):
    """B against A on the same requests.

    Attributes:
        ids: the paired request ids, sorted.
        a: A's per-request scores, in ``ids`` order.
        b: B's per-request scores.
        value_a: A's metric (mean of the per-request scores).
        value_b: B's metric.
        drop: how much worse B is, in the metric's direction (negative: B is better).
        test: the exact paired sign test (McNemar with 0/1 scores).
        bootstrap: the request-level paired bootstrap interval of ``value_b - value_a``.
        resolution: the smallest drop the test could detect on this many requests.
    """

    ids: list[str]
    a: list[float]
    b: list[float]
    value_a: float
    value_b: float
    drop: float
    test: McNemar
    bootstrap: Bootstrap
    resolution: Resolution

    def regressed(self, tolerance: float, alpha: float) -> bool:
        """The shared rule: worse by more than ``tolerance`` and not noise at ``alpha``."""
        return is_regression(self.test, self.drop, tolerance=tolerance, alpha=alpha)


def paired_stats(
    a: Mapping[str, float],
    b: Mapping[str, float],
    m: Metric,
    *,
    alpha: float,
    resamples: int = 10_000,
    seed: int = 0,
) -> PairedStats:
    """Test and interval for two score maps over the same request ids (checked by the caller).

    ``alpha`` is the per-test level; it only decides the reported resolution.
    """
    ids = sorted(a)
    sa: Sequence[float] = [a[i] for i in ids]
    sb: Sequence[float] = [b[i] for i in ids]
    value_a, value_b = sum(sa) / len(sa), sum(sb) / len(sb)
    return PairedStats(
        ids=ids,
        a=list(sa),
        b=list(sb),
        value_a=value_a,
        value_b=value_b,
        drop=m.worse(value_a, value_b),
        test=sign_test(sa, sb, higher_is_better=m.higher_is_better),
        bootstrap=paired_bootstrap(sa, sb, resamples=resamples, seed=seed),
        resolution=resolution(len(ids), alpha),
    )
