"""Annotators: extension points that add fields to results rows and summary cells."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from skillbench._registry import Registry
from skillbench.replay._experiment import Experiment
from skillbench.replay._grid import Grid
from skillbench.results import CellFields, ResultRow
from skillbench.selectors import Query
from skillbench.types import Decision


class Annotator(Protocol):
    """Adds fields to results rows and summary cells (the cost package's hook)."""

    def annotate_row(self, row: ResultRow, query: Query, decision: Decision) -> ResultRow:
        """``row`` with the annotator's fields set (e.g. ``inline_tokens``, ``fork_tokens``)."""
        ...

    def annotate_cell(self, cell: CellFields, rows: Sequence[ResultRow]) -> CellFields:
        """``cell`` with the annotator's section set (e.g. ``cost``)."""
        ...


AnnotatorFactory = Callable[[Experiment, Grid], "Annotator | None"]
ANNOTATORS: Registry[AnnotatorFactory] = Registry("annotator")
"""Every registered factory is called for each run with the resolved experiment and the
prepared grid (requests, catalogs); a factory returns None to stay out. The replay package
registers ``cost`` and ``repeats``."""


def run_annotators(experiment: Experiment, grid: Grid) -> list[Annotator]:
    """Every registered annotator that takes part in this run."""
    built = (ANNOTATORS.get(name)(experiment, grid) for name in ANNOTATORS)
    return [a for a in built if a is not None]
