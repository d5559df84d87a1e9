"""``summary.json``: per-cell metrics over every repeat of the cell, in grid order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from skillbench.replay._annotators import Annotator
from skillbench.replay._results import write_json
from skillbench.replay._types import Cell
from skillbench.results import SUMMARY, Summary, SummaryCell
from skillbench.types import CELL_FIELDS, CellKey


def summarize(
    run_dir: Path,
    name: str,
    config_hash: str,
    cells: Sequence[Cell],
    rows: Sequence[Mapping[str, Any]],
    fitted: Mapping[Cell, Mapping[str, Any]],
    train: frozenset[str],
    annotators: Sequence[Annotator] = (),
) -> list[dict[str, Any]]:
    """Write ``summary.json`` and return its cells.

    Calibrated cells are measured on the test split only (``metrics.cell_metrics`` drops
    train rows) and carry ``calibration: {train, test, fitted: [per repeat]}``.
    """
    from skillbench.metrics import cell_metrics

    by_key: dict[CellKey, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_key.setdefault(CellKey.of(row), []).append(row)
    out: list[dict[str, Any]] = []
    seen: set[CellKey] = set()
    for cell in cells:
        if cell.key in seen:
            continue
        seen.add(cell.key)
        cell_rows = by_key.get(cell.key, [])
        key = {name: getattr(cell.key, name) for name in CELL_FIELDS}
        entry: dict[str, Any] = {**key, **cell_metrics(cell_rows)}
        fits = [dict(fitted[c]) for c in cells if c.key == cell.key and c in fitted]
        if fits:
            n_train = sum(r["request_id"] in train for r in cell_rows)
            entry["calibration"] = {
                "train": n_train,
                "test": len(cell_rows) - n_train,
                "fitted": fits,
            }
        for annotator in annotators:
            entry.update(annotator.annotate_cell(entry, cell_rows))
        out.append(SummaryCell.model_validate(entry).to_json())
    summary = Summary(name=name, config_hash=config_hash, cells=[])
    write_json(run_dir / SUMMARY, {**summary.to_json(), "cells": out})
    return out
