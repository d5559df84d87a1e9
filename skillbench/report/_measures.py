"""The report's names for the metric registry (``skillbench.metrics.METRICS``).

Reports, comparisons and the gate read metric definitions from the one registry; this module
only gives them the mapping view they index by name.
"""

from __future__ import annotations

from collections.abc import Mapping

from skillbench.metrics import METRICS, Metric, metric
from skillbench.types import CORRECT

Measure = Metric
MEASURES: Mapping[str, Metric] = {m.name: m for m in METRICS.values()}
"""Every summary metric by name, in display order."""


def measure(name: str) -> Metric:
    """The metric called ``name``; a clear error (with a suggestion) otherwise."""
    return metric(name)


__all__ = ["CORRECT", "MEASURES", "Measure", "measure"]
