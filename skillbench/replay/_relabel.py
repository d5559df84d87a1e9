"""A finished run scored again under label overrides, without asking any selector again.

Each decision keeps what its selector chose; a relabelled request's outcome, visibility and
expected position follow from its new label and the listing the cell showed (rebuilt with
``replayed_listings``). The result is a run directory of its own that every report reads.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.dataset import apply_labels, check_expected, load_labels
from skillbench.replay._annotators import run_annotators
from skillbench.replay._config import load_config
from skillbench.replay._experiment import resolve_experiment
from skillbench.replay._grid import build_grid
from skillbench.replay._prepare import run_folder
from skillbench.replay._summary import summarize
from skillbench.replay._timeline import replayed_listings
from skillbench.replay._types import Cell
from skillbench.results import (
    CONFIG_COPY,
    MANIFEST,
    RESULTS,
    CellFields,
    ResultRow,
    RowKey,
    read_run,
    results_line,
)
from skillbench.selectors import Calibration
from skillbench.types import Decision, classify

KEPT = frozenset({"error", "malformed", "hallucinated"})
"""Outcomes no label changes: nothing shown was invoked."""


class Relabelled(NamedTuple):
    """Where the rescored run went and how many decisions changed outcome."""

    run_dir: Path
    decisions: int
    changed: int


def relabel_run(run_dir: str | Path, labels: str | Path, output: str | Path) -> Relabelled:
    """Write to ``output`` the run in ``run_dir`` scored under the overrides in ``labels``.

    Raises:
        InputError: a bad labels file, an id the run never saw, a skill no catalog has.
        SkillbenchError: ``output`` is the run itself, or the run cannot be read again.
    """
    source, out = Path(run_dir), Path(output)
    if out.resolve() == source.resolve():
        raise SkillbenchError(f"-o {out}: write the relabelled run beside {source}, not over it")
    experiment = resolve_experiment(load_config(source / CONFIG_COPY))
    grid = build_grid(experiment.grid)
    overrides = load_labels(labels)
    relabelled = apply_labels(grid.requests, overrides, labels)
    for (variant, _), catalog in grid.catalogs.items():
        check_expected(relabelled, catalog, label=variant)
    run = read_run(source)
    by_key = {r.row_key: r for r in run.rows}
    new: dict[RowKey, ResultRow] = {}
    for step in replayed_listings(experiment, grid, by_key):
        if step.row is not None and step.request.id in overrides:
            expected = overrides[step.request.id]
            new[step.row.row_key] = rescored(step.row, expected, step.shown.listing.shown_names)
    ordered = [*(new.get(r.row_key, r) for r in run.rows), *run.controls]
    with run_folder(out):
        for name in (CONFIG_COPY, MANIFEST):
            shutil.copyfile(source / name, out / name)
        (out / RESULTS).write_text("".join(results_line(r) for r in ordered), encoding="utf-8")
        summarize(
            out,
            run.summary.name,
            run.summary.config_hash,
            grid.cells,
            ordered,
            _fitted(grid.cells, run.summary.cells),
            frozenset(r.request_id for r in run.rows if r.split == "train"),
            run_annotators(experiment, grid),
            experiment.controls.threshold,
        )
    changed = sum(new[k].outcome != by_key[k].outcome for k in new)
    return Relabelled(out, len(new), changed)


def rescored(row: ResultRow, expected: Sequence[str], shown: Sequence[str]) -> ResultRow:
    """``row`` under the label ``expected``, given the names its listing showed."""
    positions = [shown.index(n) for n in expected if n in shown]
    outcome = row.outcome
    if outcome not in KEPT:
        chosen = row.chosen
        decision = Decision("abstain") if chosen is None else Decision("invoke", chosen)
        outcome = classify(expected, decision, shown)
    return row.model_copy(
        update={
            "expected": list(expected),
            "outcome": outcome,
            "visible": bool(positions) if expected else None,
            "gold_position": min(positions) if positions else None,
        }
    )


def _fitted(cells: Sequence[Cell], summary: Sequence[CellFields]) -> dict[Cell, Calibration]:
    """What each calibrated cell fitted, from the summary's ``calibration`` (per repeat)."""
    fits = {c.key: c.calibration.fitted for c in summary if c.calibration is not None}
    out: dict[Cell, Calibration] = {}
    for cell in cells:
        found = fits.get(cell.key)
        if found and cell.repeat < len(found):
            out[cell] = found[cell.repeat]
    return out
