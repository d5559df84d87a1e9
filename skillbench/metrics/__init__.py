"""Outcomes, per-cell metrics and the statistics behind them."""

from skillbench.metrics._cell import (
    INVOKED,
    by_position,
    cell_metrics,
    confusion,
    counted_rows,
    per_skill,
    with_ci,
)
from skillbench.metrics._intervals import (
    Interval,
    bootstrap_ratio,
    rate,
    wilson,
    wilson_json,
)
from skillbench.metrics._outcome import FALSE_INVOCATIONS, OUTCOMES, Outcome, classify

__all__ = [
    "FALSE_INVOCATIONS",
    "INVOKED",
    "OUTCOMES",
    "Interval",
    "Outcome",
    "bootstrap_ratio",
    "by_position",
    "cell_metrics",
    "classify",
    "confusion",
    "counted_rows",
    "per_skill",
    "rate",
    "wilson",
    "wilson_json",
    "with_ci",
]
