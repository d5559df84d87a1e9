"""``summary.json``: per-cell metrics over every repeat of the cell, in grid order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from skillbench.metrics import DEFAULT_CONTROL_THRESHOLD, control_stats, split_controls
from skillbench.replay._annotators import Annotator
from skillbench.replay._types import Cell
from skillbench.results import (
    SUMMARY,
    CellCalibration,
    CellFields,
    ResultRow,
    Summary,
    group_by_cell,
    plugin_metrics,
    summary_cell,
    write_json,
)
from skillbench.selectors import Calibration
from skillbench.types import CellKey


def summarize(
    run_dir: Path,
    name: str,
    config_hash: str,
    cells: Sequence[Cell],
    rows: Sequence[ResultRow],
    fitted: Mapping[Cell, Calibration],
    train: frozenset[str],
    annotators: Sequence[Annotator] = (),
    control_threshold: float = DEFAULT_CONTROL_THRESHOLD,
) -> list[CellFields]:
    """Write ``summary.json`` and return its cells.

    Calibrated cells are measured on the test split only and carry ``calibration: {train,
    test, fitted: [per repeat]}``. Positive controls are counted apart, in ``controls``
    (failed below ``control_threshold``); nothing else, annotators included, sees them.
    """
    by_key = group_by_cell(rows)
    out: list[CellFields] = []
    seen: set[CellKey] = set()
    for cell in cells:
        if cell.key in seen:
            continue
        seen.add(cell.key)
        cell_rows, controls = split_controls(by_key.get(cell.key, []))
        summary = summary_cell(cell.key, cell_rows)
        fits = [fitted[c] for c in cells if c.key == cell.key and c in fitted]
        if fits:
            n_train = sum(r.request_id in train for r in cell_rows)
            calibration = CellCalibration(train=n_train, test=len(cell_rows) - n_train, fitted=fits)
            summary = summary.model_copy(update={"calibration": calibration})
        for annotator in annotators:
            summary = annotator.annotate_cell(summary, cell_rows)
        stats = control_stats(controls, control_threshold)
        out.append(summary if stats is None else summary.model_copy(update={"controls": stats}))
    written = Summary(
        name=name, config_hash=config_hash, cells=out, plugin_metrics=plugin_metrics()
    )
    write_json(run_dir / SUMMARY, written.to_json())
    return out
