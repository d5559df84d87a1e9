"""The viewer's one contact with the run directory: which cells, which rows, which config.

Everything else in the viewer reads :class:`RunData`, so a new run reader replaces this module
alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from skillbench.report import cell_label, run_name, skill_descriptions, varying_keys
from skillbench.results import CONFIG_COPY, CellFields, ResultRow, read_run
from skillbench.types import CellKey, JsonObject


@dataclass(frozen=True)
class RunData:
    """What the viewer needs of one run.

    Attributes:
        name: the run's name.
        path: the run directory.
        cells: every cell's key, in summary order.
        labels: a short label per cell naming only the fields that vary.
        rows: every results row, in file order.
        config: the resolved config file, when the run kept one.
        settings: that config's contents (empty without one).
        summary: the summary cells (what calibrated cells fitted, per repeat).
        descriptions: each skill's description as the run's catalogs held it.
        agents: the manifest's agent facts per profile (the release its listings follow).
    """

    name: str
    path: Path
    cells: Sequence[CellKey]
    labels: Sequence[str]
    rows: Sequence[ResultRow]
    config: Path | None
    settings: JsonObject = field(default_factory=dict)
    summary: Sequence[CellFields] = ()
    descriptions: Mapping[str, str] = field(default_factory=dict)
    agents: Mapping[str, JsonObject] = field(default_factory=dict)


def read_run_data(path: str | Path) -> RunData:
    """Load a run directory for the viewer (cells from the summary, rows from the results;
    the reader refuses rows of a cell the summary lacks)."""
    run = read_run(path)
    cells = run.summary.cells
    keys = varying_keys(cells)
    config = run.path / CONFIG_COPY
    return RunData(
        run_name(run),
        run.path,
        [c.key for c in cells],
        [cell_label(c, keys) for c in cells],
        run.rows,
        config if config.is_file() else None,
        run.config,
        cells,
        skill_descriptions(run),
        dict(run.manifest.agents or {}) if run.manifest is not None else {},
    )
