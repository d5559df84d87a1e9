"""Which metrics exist, which way is better, and how each reads off one results row.

The summary's values are the source of truth for display and thresholds; the per-row
definitions here give denominators (``n``) and the per-request scores paired tests need.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from skillbench._errors import SkillbenchError, suggest
from skillbench.metrics import FALSE_INVOCATIONS, INVOKED

Row = Mapping[str, Any]
CORRECT = frozenset({"correct_skill", "correct_abstain"})


def _positive(row: Row) -> bool:
    return bool(row.get("expected"))


@dataclass(frozen=True)
class Measure:
    """A summary metric.

    Attributes:
        name: key in each summary cell (its interval is ``name + "_ci"``).
        higher_is_better: direction used by gates and "worse" in comparisons.
        applies: whether a row is in the metric's denominator (None: no per-row form, e.g. f1).
        hit: whether an applicable row counts as a success for the metric.
    """

    name: str
    higher_is_better: bool
    applies: Callable[[Row], bool] | None = None
    hit: Callable[[Row], bool] | None = None

    @property
    def per_row(self) -> bool:
        return self.applies is not None and self.hit is not None

    def worse(self, old: float, new: float) -> float:
        """How much worse ``new`` is than ``old`` (positive = regression)."""
        return old - new if self.higher_is_better else new - old

    def counts(self, rows: Iterable[Row]) -> tuple[int, int]:
        """(successes, n) over the applicable rows."""
        if not self.per_row:
            raise SkillbenchError(f"metric {self.name!r} has no per-decision form")
        hits = n = 0
        for row in rows:
            if self.applies(row):  # type: ignore[misc]
                n += 1
                hits += bool(self.hit(row))  # type: ignore[misc]
        return hits, n


MEASURES: dict[str, Measure] = {
    m.name: m
    for m in (
        Measure("accuracy", True, lambda r: True, lambda r: r.get("outcome") in CORRECT),
        Measure(
            "precision",
            True,
            lambda r: r.get("outcome") in INVOKED,
            lambda r: r.get("outcome") == "correct_skill",
        ),
        Measure("recall", True, _positive, lambda r: r.get("outcome") == "correct_skill"),
        Measure("f1", True),
        Measure(
            "false_invocation_rate",
            False,
            lambda r: not _positive(r),
            lambda r: r.get("outcome") in INVOKED,
        ),
        Measure(
            "false_invocations_rate",
            False,
            lambda r: True,
            lambda r: r.get("outcome") in FALSE_INVOCATIONS,
        ),
        Measure("miss_rate", False, _positive, lambda r: r.get("outcome") == "missed"),
        Measure(
            "coverage",
            True,
            _positive,
            lambda r: bool(r.get("visible")),
        ),
        Measure(
            "recall_when_shown",
            True,
            lambda r: _positive(r) and bool(r.get("visible")),
            lambda r: r.get("outcome") == "correct_skill",
        ),
    )
}
"""Every rate in a summary cell, in display order."""


def measure(name: str) -> Measure:
    """The measure called ``name``; a clear error (with a suggestion) otherwise."""
    try:
        return MEASURES[name]
    except KeyError:
        known = ", ".join(MEASURES)
        raise SkillbenchError(
            f"unknown metric {name!r}{suggest(name, MEASURES)}; known: {known}"
        ) from None
