"""Preparing a run: the output folder, the grid, every cell's run, calibration, the manifest.

Everything here happens once per run in the driving process, whatever the executor; an
executor that replays cells elsewhere (``_ray``) rebuilds its cells' runs with the same
``cell_runs`` and ``prepare_runs``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import yaml

from skillbench._errors import SkillbenchError
from skillbench.listing import Listing
from skillbench.replay._annotators import Annotator, run_annotators
from skillbench.replay._cell import CellRun, Recent
from skillbench.replay._experiment import Experiment, UsageSpec
from skillbench.replay._grid import Grid, SelectorPool, build_grid, train_split
from skillbench.replay._manifest import ManifestWriter, check_inputs, input_digests, run_info
from skillbench.replay._results import resumable_rows
from skillbench.replay._retrieve import RetrieveStages
from skillbench.replay._types import Cell, RunObserver
from skillbench.results import CONFIG_COPY, ResultRow, RowKey, hold_run_folder
from skillbench.selectors import (
    Calibratable,
    Calibration,
    Preparable,
    Selector,
    SelectorEnv,
    embedding_progress,
)


class Prepared(NamedTuple):
    """A run ready to replay.

    Attributes:
        grid: requests, catalogs, plans and cells (``train`` set when a selector calibrates).
        env: what selectors are built with.
        kept: rows a ``--resume`` keeps (every cell's).
        runs: every cell's run, its selector prepared and calibrated.
        fitted: what each calibrated cell fitted.
        annotators: add fields to rows and summary cells.
        manifest: the run's manifest, written once with ``status: running``.
    """

    grid: Grid
    env: SelectorEnv
    kept: list[ResultRow]
    runs: list[CellRun]
    fitted: dict[Cell, Calibration]
    annotators: list[Annotator]
    manifest: ManifestWriter


def prepare_run(
    experiment: Experiment,
    run_dir: Path,
    *,
    started: str,
    resume: bool,
    max_concurrency: int,
    quiet: bool,
    observer: RunObserver | None = None,
) -> Prepared:
    """Load the grid, keep a resume's rows, build and calibrate every cell's selector, and
    write ``config.yaml`` and the manifest into the claimed ``run_dir``.

    Raises:
        SkillbenchError: inputs changed since the run being resumed started; bad inputs.
    """
    if observer is not None:
        observer.phase("loading requests and catalogs")
    grid = build_grid(experiment.grid)
    inputs = input_digests(experiment.usage, grid)
    if resume:
        check_inputs(run_dir, experiment.config_hash, inputs)
    kept = resumable_rows(run_dir, experiment.config_hash) if resume else []
    env = experiment.selector_env(max_concurrency=max_concurrency, quiet=quiet)
    pool = SelectorPool(grid.selectors, env)
    if observer is not None and any(s.retrieve for s in experiment.selectors):
        observer.phase(f"retrieve stages: ranking the catalog for {len(grid.requests):,} requests")
    stages = RetrieveStages(experiment.selectors, env, grid.requests)
    runs = cell_runs(grid, pool, kept, stages, experiment.usage)
    calibrates = any(isinstance(r.selector, Calibratable) for r in runs)
    grid.train = train_split(grid.requests, experiment.calibration) if calibrates else frozenset()
    fitted = prepare_runs(runs, grid, observer)
    annotators = run_annotators(experiment, grid)
    (run_dir / CONFIG_COPY).write_text(
        yaml.safe_dump(experiment.document, sort_keys=False), encoding="utf-8"
    )
    info = run_info(experiment, grid, fitted, len(kept), inputs)
    manifest = ManifestWriter(run_dir, experiment, started, info)
    manifest.write("running")
    return Prepared(grid, env, kept, runs, fitted, annotators, manifest)


@contextmanager
def run_folder(output: Path) -> Iterator[Path]:
    """``output`` made a run folder (``prepare_output``) and held by this process while the
    block runs: one writer per run folder (``skillbench.results.hold_run_folder``).

    Raises:
        SkillbenchError: an unusable folder, or one another process is writing (named).
    """
    run_dir = prepare_output(output)
    with hold_run_folder(run_dir):
        yield run_dir


def prepare_output(run_dir: Path) -> Path:
    """Create the run directory, or say in one line why it cannot be one."""
    try:
        resolved = run_dir.resolve()
    except OSError as exc:
        raise SkillbenchError(f"-o {run_dir}: unusable output folder ({exc.strerror})") from None
    if resolved == Path("/proc") or Path("/proc") in resolved.parents:
        raise SkillbenchError(f"-o {run_dir}: cannot write a run under /proc")
    if run_dir.exists() and not run_dir.is_dir():
        raise SkillbenchError(f"-o {run_dir}: exists and is not a folder")
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        probe = run_dir / f".skillbench-write-test-{os.getpid()}"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        if isinstance(exc, NotADirectoryError):
            reason = "a parent is a file, not a folder"
        raise SkillbenchError(f"-o {run_dir}: cannot write there ({reason})") from None
    return run_dir


def cell_runs(
    grid: Grid,
    pool: SelectorPool,
    kept: Iterable[ResultRow],
    stages: RetrieveStages,
    usage: UsageSpec,
) -> list[CellRun]:
    """A run per cell of ``grid``, holding the rows ``kept`` for it; cells of one plan share
    their interned listings."""
    done = {r.row_key: r for r in kept}
    tracker = usage.trackers()
    interned: dict[int, Recent[Listing]] = {}
    runs = []
    for cell in grid.cells:
        plan = grid.plans[cell]
        mine = {
            r.id: done[key]
            for r in grid.requests
            if (key := RowKey(cell.key, cell.repeat, r.id)) in done
        }
        runs.append(
            CellRun(
                cell,
                plan,
                pool.for_cell(cell),
                tracker(cell.key.half_life),
                record_label=usage.record_label,
                done=mine,
                seen=interned.setdefault(id(plan), Recent()),
                retrieved=stages.top(cell.key.selector, plan),
            )
        )
    return runs


def distinct_selectors(runs: Sequence[CellRun]) -> list[Selector]:
    """Each selector of ``runs`` once (cells share their selector's instance)."""
    return list({id(r.selector): r.selector for r in runs}.values())


def prepare_runs(
    runs: Sequence[CellRun], grid: Grid, observer: RunObserver | None = None
) -> dict[Cell, Calibration]:
    """Let each selector embed the request texts once, then fit every calibrating cell on
    ``grid.train``; returns what each fitted cell chose."""
    texts = [r.text for r in grid.requests]
    for selector in distinct_selectors(runs):
        if isinstance(selector, Preparable):
            if observer is not None:
                what = f"{type(selector).__name__}: loading its model, embedding"
                observer.phase(f"{what} {len(texts):,} request texts")
            with embedding_progress(None if observer is None else observer.count):
                selector.prepare(texts)
    fitted: dict[Cell, Calibration] = {}
    for run in runs:
        if isinstance(run.selector, Calibratable):
            run.train = grid.train
            fitted[run.cell] = run.calibrate(grid.requests)
    return fitted
