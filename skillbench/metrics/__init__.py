"""Outcomes, per-cell metrics and the statistics behind them."""

from skillbench.metrics._intervals import Interval, wilson
from skillbench.metrics._outcome import FALSE_INVOCATIONS, OUTCOMES, Outcome, classify

__all__ = ["FALSE_INVOCATIONS", "OUTCOMES", "Interval", "Outcome", "classify", "wilson"]
