"""Paired effects of one grid field: two cells that differ only in that field, judged on the
same requests.

Cells that share every other field (a *comparable group*) are the only fair comparison: a
difference pooled across profiles or selectors mixes in what they change. Each request is
one unit (its repeats averaged), and the interval is a seeded paired bootstrap, so it is
narrower than two overlapping Wilson intervals suggest whenever the cells agree on most
requests.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from skillbench.metrics import METRICS, Interval, paired_bootstrap
from skillbench.report._run import (
    BASELINES,
    ORACLE,
    cell_label,
    distinct,
    fmt_value,
    half_life_order,
    rows_by_cell,
    selector_type,
    sort_value,
)
from skillbench.results import CellFields, ResultRow, Run
from skillbench.types import CELL_FIELDS, CellKey

Cell = CellFields
RESAMPLES = 4000
"""Bootstrap resamples per effect: enough for two-decimal interval ends, fast on 2 cores."""


class Effect(NamedTuple):
    """``other`` minus ``base`` on one metric, paired over the requests both decided.

    Attributes:
        axis: the grid field that differs.
        base: the cell compared against.
        other: the cell compared.
        metric: the measure's name (``accuracy``, ``false_invocation_rate`` …).
        diff: mean per-request difference, other − base.
        ci: 95% paired bootstrap interval of ``diff``.
        n: requests in the comparison.
    """

    axis: str
    base: Cell
    other: Cell
    metric: str
    diff: float
    ci: Interval
    n: int

    @property
    def clear(self) -> bool:
        """The interval excludes zero: the data show a difference."""
        return self.ci.low > 0 or self.ci.high < 0

    def text(self, *, signed: bool = True) -> str:
        """``+0.043 [0.031, 0.055], 1,532 paired requests``."""
        value = f"{self.diff:+.3f}" if signed else f"{self.diff:.3f}"
        return f"{value} [{self.ci.low:+.3f}, {self.ci.high:+.3f}], {self.n:,} paired requests"


def request_scores(rows: Iterable[ResultRow], metric: str = "accuracy") -> dict[str, float]:
    """Request id → mean success on ``metric`` over its repeats (rows it applies to only)."""
    measure = METRICS.get(metric)
    hits: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        if measure.per_row and measure.applies(row):  # type: ignore[misc]
            hits[row.request_id].append(bool(measure.hit(row)))  # type: ignore[misc]
    return {rid: sum(v) / len(v) for rid, v in hits.items()}


class Effects:
    """Paired effects between the cells of one run (request scores computed once per cell)."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self._rows = rows_by_cell(run.rows)
        self._scores: dict[tuple[CellKey, str], dict[str, float]] = {}

    def rows(self, cell: Cell) -> Sequence[ResultRow]:
        """The cell's counted rows (the test split when a selector calibrated)."""
        return self._rows.get(cell.key, ())

    def scores(self, cell: Cell, metric: str) -> dict[str, float]:
        key = (cell.key, metric)
        if key not in self._scores:
            self._scores[key] = request_scores(self.rows(cell), metric)
        return self._scores[key]

    def effect(self, axis: str, base: Cell, other: Cell, metric: str = "accuracy") -> Effect | None:
        """``other − base`` on ``metric``; None when they share no scored request."""
        a, b = self.scores(base, metric), self.scores(other, metric)
        ids = sorted(a.keys() & b.keys())
        if not ids:
            return None
        boot = paired_bootstrap([a[i] for i in ids], [b[i] for i in ids], resamples=RESAMPLES)
        return Effect(axis, base, other, metric, boot.diff, boot.ci, len(ids))


def kind(run: Run, cell: Cell) -> str:
    """The selector type of a cell."""
    return selector_type(run, cell.selector)


def is_baseline(run: Run, cell: Cell) -> bool:
    """Oracle, never and random cells: references, never the subject of advice."""
    return kind(run, cell) in BASELINES | {ORACLE}


def selector_cells(run: Run, cells: Sequence[Cell] | None = None) -> list[Cell]:
    """``cells`` (default: the run's) of the selectors under test, baselines left out; every
    cell when all are baselines. Plots and pooled counts draw these, never both kinds mixed."""
    cells = run.summary.cells if cells is None else cells
    return [c for c in cells if not is_baseline(run, c)] or list(cells)


def cells_text(run: Run, cells: Sequence[Cell]) -> str:
    """Which cells a plot or count covers, in a few words (selectors named, baselines too)."""
    names = ", ".join(dict.fromkeys(c.selector for c in cells))
    left = sorted({c.selector for c in run.summary.cells if c not in cells})
    text = f"{len(cells)} cell{'s' if len(cells) != 1 else ''} of selector {names}"
    return text + (f" (baselines {', '.join(left)} left out)" if left else "")


def groups(cells: Sequence[Cell], axis: str) -> dict[tuple[str, ...], list[Cell]]:
    """Cells sharing every key field but ``axis``, each group sorted by ``axis``; groups
    with a single cell compare nothing and are left out."""
    out: dict[tuple[str, ...], list[Cell]] = defaultdict(list)
    for cell in cells:
        out[tuple(fmt_value(getattr(cell, k)) for k in CELL_FIELDS if k != axis)].append(cell)
    return {
        key: sorted(cs, key=lambda c: axis_order(axis, getattr(c, axis)))
        for key, cs in out.items()
        if len(cs) > 1
    }


def axis_order(axis: str, value: Any) -> tuple[Any, ...]:
    """Sort key of an axis value: budgets by size, half-lives by duration, the rest by name."""
    if axis == "half_life":
        return half_life_order(value)
    return sort_value(value)


def group_label(run: Run, cell: Cell, axis: str) -> str:
    """The fields naming a comparable group: those that vary in the run, ``axis`` excluded."""
    keys = [k for k in distinct(run.summary.cells)[1] if k != axis]
    return cell_label(cell, keys)
