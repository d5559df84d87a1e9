"""The report's objective, named by its registered name or by ``module:object``.

A registered metric is a summary column, so ranking cells on it reads the summary. A metric
that only a ``module:object`` name reaches is no column of any summary; for the report it is
computed from each cell's counted rows, the way a summary computes a registered one, and
registered for as long as the report is built, so every table, plot and headline reads it
under its own name exactly like a registered metric.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from skillbench._errors import SkillbenchError
from skillbench.metrics import METRICS, Metric, summarised
from skillbench.report._run import rows_by_cell
from skillbench.results import Run, Summary


@contextmanager
def objective_in_summary(run: Run, metric: Metric, named: str) -> Iterator[Run]:
    """``run`` with ``metric`` in every summary cell, for the ``with`` block (the run as it
    is when the summary already carries the metric)."""
    if summarised(metric):
        yield run
        return
    if metric.name in METRICS:
        raise SkillbenchError(
            f"metric {named!r} is called {metric.name!r}, the name of another metric; "
            "rename it to report on it"
        )
    by_cell = rows_by_cell(run.rows)
    cells = []
    for cell in run.summary.cells:
        value, ci = metric.compute(by_cell.get(cell.key, []))
        cells.append({**cell.to_json(), metric.name: value, metric.name + "_ci": ci})
    with METRICS.temporarily(metric.name, metric):
        summary = Summary.model_validate({**run.summary.to_json(), "cells": cells})
        yield run.model_copy(update={"summary": summary})
