"""The viewer's one contact with the run directory: which cells, which rows, which config.

Everything else in the viewer reads :class:`RunData`, so a new run reader replaces this module
alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skillbench.report import load_run
from skillbench.report._run import cell_key, cell_label, skill_descriptions
from skillbench.types import CELL_FIELDS, cell_fields

CellKey = tuple[Any, ...]


@dataclass(frozen=True)
class RunData:
    """What the viewer needs of one run.

    Attributes:
        name: the run's name.
        path: the run directory.
        cells: every cell's key fields (``CELL_FIELDS`` order), in summary order.
        labels: a short label per cell naming only the fields that vary.
        rows: every results row, in file order.
        config: the resolved config file, when the run kept one.
        settings: that config's contents (empty without one).
        summary: the summary cells (what calibrated cells fitted, per repeat).
        descriptions: each skill's description as the run's catalogs held it.
    """

    name: str
    path: Path
    cells: Sequence[CellKey]
    labels: Sequence[str]
    rows: Sequence[Mapping[str, Any]]
    config: Path | None
    settings: Mapping[str, Any] = field(default_factory=dict)
    summary: Sequence[Mapping[str, Any]] = ()
    descriptions: Mapping[str, str] = field(default_factory=dict)

    def cell_of(self, row: Mapping[str, Any]) -> CellKey:
        return cell_key(row)


def read_run_data(path: str | Path) -> RunData:
    """Load a run directory for the viewer (cells from the summary, rows from the results)."""
    run = load_run(path)
    keys = run.varying()
    cells = [cell_key(c) for c in run.cells]
    labels = [cell_label(c, keys) for c in run.cells]
    known = set(cells)
    for row in run.rows:  # rows of cells the summary lacks (a stopped run) still show
        key = cell_key(row)
        if key not in known:
            known.add(key)
            cells.append(key)
            fields = dict(zip(CELL_FIELDS, key, strict=True))
            labels.append(cell_label(fields, cell_fields([fields])))
    config = run.path / "config.yaml"
    return RunData(
        run.name,
        run.path,
        cells,
        labels,
        run.rows,
        config if config.is_file() else None,
        run.config,
        run.cells,
        skill_descriptions(run),
    )
