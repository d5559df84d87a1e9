"""Positive controls: requests that name their skill explicitly, scored apart.

A model cell's numbers mean something only if the path from the model's choice to the
recorded decision works: a request that names a listed skill outright must come back as an
invocation of that skill. Control rows prove it per cell and never enter a metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from skillbench.metrics._intervals import wilson_json
from skillbench.types import Record, ResultRow

DEFAULT_CONTROLS = 5
"""Control decisions per model or live cell (and repeat) unless the config says otherwise."""
DEFAULT_CONTROL_THRESHOLD = 0.95
"""Control trigger rate below which a cell's controls have failed."""

ControlStatus = Literal["passed", "controls_failed"]


class ControlStats(Record):
    """A cell's positive controls (the summary cell's ``controls`` section)."""

    n: int
    """Control decisions of the cell (every repeat)."""
    triggered: int
    """Controls whose named skill was invoked."""
    rate: float | None
    """`triggered / n` (null without controls)."""
    rate_ci: list[float] | None = None
    """95% Wilson interval of `rate`."""
    threshold: float
    """Rate below which the cell's controls have failed."""
    status: ControlStatus
    """`passed`, or `controls_failed`: the cell's metrics are not to be trusted."""
    reason: str | None = None
    """Why the controls failed: the rate and the first controls that did not trigger."""

    @property
    def failed(self) -> bool:
        return self.status == "controls_failed"


class SplitRows(NamedTuple):
    """A cell's rows: the decisions its metrics count, and its positive controls."""

    scored: list[ResultRow]
    controls: list[ResultRow]


def split_controls(rows: Sequence[ResultRow]) -> SplitRows:
    """``rows`` parted into scored decisions and control decisions, order kept."""
    return SplitRows([r for r in rows if not r.control], [r for r in rows if r.control])


def control_stats(controls: Sequence[ResultRow], threshold: float) -> ControlStats | None:
    """The controls section of a cell from its control rows (None without any)."""
    if not controls:
        return None
    hits = sum(r.outcome == "correct_skill" for r in controls)
    rate = hits / len(controls)
    reason = None
    if rate < threshold:
        missed = [
            f"{r.expected[0]} ({r.outcome})" for r in controls if r.outcome != "correct_skill"
        ]
        more = f" and {len(missed) - 3} more" if len(missed) > 3 else ""
        reason = (
            f"positive controls triggered {hits}/{len(controls)} ({rate:.0%}, below "
            f"{threshold:.0%}); not triggered: {', '.join(missed[:3])}{more}"
        )
    return ControlStats(
        n=len(controls),
        triggered=hits,
        rate=rate,
        rate_ci=wilson_json(hits, len(controls)),
        threshold=threshold,
        status="passed" if reason is None else "controls_failed",
        reason=reason,
    )
