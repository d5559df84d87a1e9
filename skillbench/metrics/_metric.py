"""The metric registry: every summary rate defined once, with its interval and direction.

``summary.json`` cells, report tables and CSVs, the ``run`` table and the CI gate all iterate
:data:`METRICS`, so a metric added here appears everywhere with the same name and meaning.

Decisions that ended in ``error`` (no answer after the selector's retries) are outside every
rate's denominator except ``error_rate``'s: a failed call is not a wrong answer, and the
error count stands beside the rates instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from skillbench._errors import SkillbenchError
from skillbench._plugins import instance_of
from skillbench._registry import Registry
from skillbench.metrics._intervals import bootstrap_ratio, rate, wilson_json
from skillbench.types import CORRECT, INVOKED, UNANSWERED, UNWANTED

if TYPE_CHECKING:
    from skillbench.types import ResultRow

RowTest = Callable[["ResultRow"], bool]
Value = tuple[float | None, list[float] | None]
"""A metric's value and its 95% interval (``None`` when undefined)."""


def completed(row: ResultRow) -> bool:
    """Whether the decision got an answer (anything but ``error``): the rows rates count."""
    return row.outcome not in UNANSWERED


@dataclass(frozen=True)
class Metric:
    """One summary metric.

    Attributes:
        name: key in each summary cell; its interval is ``name + "_ci"``.
        definition: one line saying what is counted over what.
        higher_is_better: direction used by gates and by "worse" in comparisons.
        interval: how the 95% interval is computed (Wilson score, or a bootstrap for ratios
            of two counts that no binomial interval covers).
        applies: whether a row is in the denominator (None: no single denominator, e.g.
            f1, a ratio of two counts).
        hit: whether an applicable row counts as a success (None: the metric is a mean of
            per-row scores or a ratio, not a share).
        compute: the value and interval over one cell's rows.
        headline: shown in compact tables (the ``run`` command's), not only in full ones.
        optional: defined only for cells with an optional stage (retrieval): a summary
            cell leaves it out where it is undefined, and so do report tables.
    """

    name: str
    definition: str
    higher_is_better: bool
    interval: Literal["wilson", "bootstrap"]
    applies: RowTest | None
    hit: RowTest | None
    compute: Callable[[Sequence[ResultRow]], Value]
    headline: bool = False
    optional: bool = False

    @property
    def per_row(self) -> bool:
        """Whether the metric is a share of rows (so paired per-request tests apply)."""
        return self.applies is not None and self.hit is not None

    def worse(self, old: float, new: float) -> float:
        """How much worse ``new`` is than ``old`` (positive = regression)."""
        return old - new if self.higher_is_better else new - old

    def size(self, rows: Iterable[ResultRow]) -> int | None:
        """How many rows the value is over (None: the metric has no single denominator)."""
        if self.applies is None:
            return None
        return sum(1 for row in rows if self.applies(row))

    def counts(self, rows: Iterable[ResultRow]) -> tuple[int, int]:
        """(successes, n) over the applicable rows."""
        if self.applies is None or self.hit is None:
            raise SkillbenchError(f"metric {self.name!r} has no per-decision form")
        hits = n = 0
        for row in rows:
            if self.applies(row):
                n += 1
                hits += bool(self.hit(row))
        return hits, n


METRICS: Registry[Metric] = Registry("metric", adopt=instance_of(Metric))
"""Every summary metric, in display order (``METRICS.values()``)."""


def share(
    name: str,
    definition: str,
    *,
    higher_is_better: bool,
    applies: RowTest,
    hit: RowTest,
    over_errors: bool = False,
    headline: bool = False,
    optional: bool = False,
) -> Metric:
    """Register a share of rows with a Wilson interval; ``over_errors`` keeps errored rows in
    the denominator (only ``error_rate`` does)."""
    counted = applies if over_errors else (lambda r: completed(r) and applies(r))

    def compute(rows: Sequence[ResultRow]) -> Value:
        hits = n = 0
        for row in rows:
            if counted(row):
                n += 1
                hits += bool(hit(row))
        return rate(hits, n), wilson_json(hits, n)

    metric = Metric(
        name, definition, higher_is_better, "wilson", counted, hit, compute, headline, optional
    )
    METRICS.register(name)(metric)
    return metric


def _outcome_in(group: frozenset[str]) -> RowTest:
    return lambda row: row.outcome in group


def _is(outcome: str) -> RowTest:
    return lambda row: row.outcome == outcome


def positive(row: ResultRow) -> bool:
    """The request expects a skill."""
    return bool(row.expected)


def negative(row: ResultRow) -> bool:
    """The request expects no skill."""
    return not row.expected


def _visible_positive(row: ResultRow) -> bool:
    return positive(row) and bool(row.visible)


def _everything(row: ResultRow) -> bool:
    return True


share(
    "accuracy",
    "right answers (the expected skill, or nothing on a negative) / completed decisions",
    higher_is_better=True,
    applies=_everything,
    hit=_outcome_in(CORRECT),
    headline=True,
)
PRECISION = share(
    "precision",
    "invocations of an expected skill / invocations of any skill",
    higher_is_better=True,
    applies=_outcome_in(INVOKED),
    hit=_is("correct_skill"),
)
RECALL = share(
    "recall",
    "positives where an expected skill was invoked / positives",
    higher_is_better=True,
    applies=positive,
    hit=_is("correct_skill"),
)


def _f1(rows: Sequence[ResultRow]) -> Value:
    """F1 = 2·correct / (invoked + positives), with a bootstrap interval by row category."""
    precision = PRECISION.compute(rows)[0]
    recall = RECALL.compute(rows)[0]
    if precision is None or recall is None:
        value = None
    else:
        value = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    kinds = Counter(
        (r.outcome == "correct_skill", r.outcome in INVOKED, positive(r))
        for r in rows
        if completed(r)
    )
    if not any(invoked or pos for _, invoked, pos in kinds):
        return value, None
    keys = sorted(kinds)
    low, high = bootstrap_ratio(
        [2.0 * tp for tp, _, _ in keys],
        [float(inv) + float(pos) for _, inv, pos in keys],
        [kinds[k] for k in keys],
    )
    return value, [low, high]


METRICS.register("f1")(
    Metric(
        "f1",
        "harmonic mean of precision and recall",
        True,
        "bootstrap",
        None,
        None,
        _f1,
    )
)
share(
    "false_invocation_rate",
    "negatives where any skill was invoked (listed or not) / negatives",
    higher_is_better=False,
    applies=negative,
    hit=_outcome_in(INVOKED),
    headline=True,
)
share(
    "unwanted_invocation_rate",
    "invocations that should not have happened (on a negative, of a wrong or an unlisted "
    "skill) / completed decisions",
    higher_is_better=False,
    applies=_everything,
    hit=_outcome_in(UNWANTED),
)
share(
    "miss_rate",
    "positives where nothing was invoked / positives",
    higher_is_better=False,
    applies=positive,
    hit=_is("missed"),
    headline=True,
)
share(
    "coverage",
    "positives whose expected skill was shown in the listing / positives",
    higher_is_better=True,
    applies=positive,
    hit=lambda row: bool(row.visible),
    headline=True,
)
share(
    "recall_when_shown",
    "positives where an expected skill was invoked / positives whose expected skill was shown",
    higher_is_better=True,
    applies=_visible_positive,
    hit=_is("correct_skill"),
)
share(
    "error_rate",
    "decisions with no answer after the selector's retries / all decisions",
    higher_is_better=False,
    applies=_everything,
    hit=_outcome_in(UNANSWERED),
    over_errors=True,
)

RENAMED: Mapping[str, str] = {
    "false_invocations_rate": "unwanted_invocation_rate",
    "false_invocations": "unwanted_invocations",
}
"""Summary keys of schema 0.1 and their current names (read when loading old runs)."""


def find_metric(name: str) -> Metric:
    """The metric called ``name`` (old names accepted, plugins' too); a clear error with a
    suggestion."""
    return METRICS.get(RENAMED.get(name, name))


def summarised(metric: Metric) -> bool:
    """Whether summaries carry ``metric`` as a column: a registered metric, however it is
    named; one that only a ``module:object`` name reaches is computed from a run's rows
    wherever it is asked for."""
    return metric.name in METRICS and METRICS.get(metric.name) is metric


def metric_key(name: str) -> str:
    """The one name a metric is keyed by in thresholds and gates, so that a
    ``module:object`` name and the registered name are the same metric: the registered
    name, or for a metric registered nowhere the reference (the name that finds it again)."""
    metric = find_metric(name)
    return metric.name if summarised(metric) else name
