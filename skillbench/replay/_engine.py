"""The replay engine: every grid cell replays the requests in time order, in lockstep.

Per step a cell takes its usage scores at the request's time, renders its listing, asks its
selector, classifies the decision and records the invoked skill (or, with
``usage.record: label``, the expected one) into its own usage tracker (see ``_cell``).

Each round gathers what every cell can ask now (one query for a dependent cell, up to
``CHUNK`` for the others) and calls each selector once with the queries of all cells using
it, so embedding selectors vectorise across cells and model selectors can run many calls
concurrently.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from skillbench._errors import SkillbenchError
from skillbench.dataset import LabelledRequest
from skillbench.listing import Listing
from skillbench.replay._cell import CellRun, FactsCache, make_row
from skillbench.replay._config import RunConfig
from skillbench.replay._grid import (
    Grid,
    SelectorPool,
    build_grid,
    selector_env,
    train_split,
    usage_trackers,
)
from skillbench.replay._manifest import ManifestWriter, run_info
from skillbench.replay._results import (
    CONFIG_COPY,
    RESULTS,
    ResultsWriter,
    now_iso,
    resumable_rows,
    row_key,
    write_rows,
)
from skillbench.replay._summary import summarize
from skillbench.replay._types import ANNOTATORS, Annotator, RunObserver, RunStatus, RunStopped
from skillbench.selectors import Calibratable, Preparable, Query, Selector

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each decision."""


@dataclass(frozen=True)
class RunResult:
    """What a run produced: where, how it ended and the summary cells."""

    run_dir: Path
    status: RunStatus
    reason: str | None
    cells: list[dict[str, Any]]
    decisions: int
    resumed: int


def run_experiment(
    config: RunConfig,
    *,
    output: str | Path | None = None,
    limit: int | None = None,
    resume: bool = False,
    max_concurrency: int = 8,
    quiet: bool = True,
    progress: Progress | None = None,
    observer: RunObserver | None = None,
) -> RunResult:
    """Replay ``config``'s grid and write the run directory.

    Args:
        config: the validated run config.
        output: run directory (default ``config.output_dir`` or ``reports/<name>``).
        limit: replay only the first ``limit`` requests of the file (overrides the config).
        resume: keep the decisions of an earlier run of the same config in ``output`` and
            do only the missing ones; usage replays their recorded choices.
        max_concurrency: calls per endpoint for model selectors.
        quiet: tell selectors not to print progress.
        progress: ``progress(done, total)`` after each decision.
        observer: told each phase of the run and each finished decision.

    Raises:
        KeyboardInterrupt: after recording ``status: interrupted``; ``--resume`` continues.
    """
    if limit is not None:
        config = config.model_copy(update={"limit": limit})
    run_dir = Path(output) if output is not None else config.output_path()
    run_dir.mkdir(parents=True, exist_ok=True)
    config_hash = config.config_hash()
    started = now_iso()
    if observer is not None:
        observer.phase("loading requests and catalogs")
    grid = build_grid(config)
    kept = resumable_rows(run_dir, config_hash) if resume else []
    pool = SelectorPool(
        grid.selector_configs, selector_env(config, max_concurrency=max_concurrency, quiet=quiet)
    )
    runs = _cell_runs(config, grid, pool, kept)
    texts = [r.text for r in grid.requests]
    for selector in {id(r.selector): r.selector for r in runs}.values():
        if isinstance(selector, Preparable):
            if observer is not None:
                what = f"{type(selector).__name__}: loading its model, embedding"
                observer.phase(f"{what} {len(texts):,} request texts")
            selector.prepare(texts)
    calibrated = [r for r in runs if isinstance(r.selector, Calibratable)]
    grid.train = train_split(grid.requests, config) if calibrated else frozenset()
    for r in calibrated:
        r.train = grid.train
    fitted = {r.cell: r.calibrate(grid.requests) for r in calibrated}
    annotators = _annotators(config, grid.requests)
    (run_dir / CONFIG_COPY).write_text(
        yaml.safe_dump(config.resolved(), sort_keys=False), encoding="utf-8"
    )
    manifest = ManifestWriter(
        run_dir, config, config_hash, started, run_info(config, grid, fitted, len(kept))
    )
    manifest.write("running")
    rows = {(r.cell.index, i): row for r in runs for i, row in _done_steps(r, grid.requests)}
    writer = ResultsWriter(run_dir / RESULTS, (rows[k] for k in sorted(rows)))
    status: RunStatus = "complete"
    reason: str | None = None
    if observer is not None:
        observer.phase("replaying decisions", grid.decisions - len(rows))
    try:
        _replay(
            runs,
            grid.requests,
            rows,
            writer,
            FactsCache(config.token_model),
            annotators,
            progress,
            grid.decisions,
            observer,
        )
    except RunStopped as stop:
        status, reason = "stopped", stop.reason
    except BaseException as exc:
        writer.close()
        manifest.write("interrupted", type(exc).__name__ + (f": {exc}" if str(exc) else ""))
        raise
    writer.close()
    if observer is not None:
        observer.phase("writing results and summary")
    ordered = [rows[k] for k in sorted(rows)]
    write_rows(run_dir / RESULTS, ordered)
    cells = summarize(
        run_dir, config.name, config_hash, grid.cells, ordered, fitted, grid.train, annotators
    )
    manifest.write(status, reason)
    return RunResult(run_dir, status, reason, cells, len(ordered), len(kept))


def _annotators(config: RunConfig, requests: Sequence[LabelledRequest]) -> list[Annotator]:
    """Every registered annotator that takes part in this run (importing ``skillbench.cost``
    registers the cost annotator)."""
    importlib.import_module("skillbench.cost")
    built = (ANNOTATORS.get(name)(config, requests) for name in ANNOTATORS)
    return [a for a in built if a is not None]


def _cell_runs(
    config: RunConfig, grid: Grid, pool: SelectorPool, kept: Iterable[Mapping[str, Any]]
) -> list[CellRun]:
    done: dict[tuple[Any, ...], dict[str, Any]] = {row_key(r): dict(r) for r in kept}
    tracker = usage_trackers(config)
    interned: dict[int, dict[str, Listing]] = {}
    runs = []
    for cell in grid.cells:
        plan = grid.plans[cell]
        prefix = (*cell.key, cell.repeat)
        mine = {r.id: done[(*prefix, r.id)] for r in grid.requests if (*prefix, r.id) in done}
        runs.append(
            CellRun(
                cell,
                plan,
                pool.for_cell(cell),
                tracker(cell.half_life),
                record_label=config.usage.record == "label",
                done=mine,
                seen=interned.setdefault(id(plan), {}),
            )
        )
    return runs


def _done_steps(
    run: CellRun, requests: Sequence[LabelledRequest]
) -> Iterable[tuple[int, dict[str, Any]]]:
    for i, r in enumerate(requests):
        if r.id in run.done:
            yield i, run.done[r.id]


def _replay(
    runs: Sequence[CellRun],
    requests: Sequence[LabelledRequest],
    rows: dict[tuple[int, int], dict[str, Any]],
    writer: ResultsWriter,
    facts: FactsCache,
    annotators: Sequence[Annotator],
    progress: Progress | None,
    total: int,
    observer: RunObserver | None = None,
) -> None:
    """Rounds until every cell is through: gather queries, one ``select`` per selector."""
    active = list(runs)
    while active:
        groups: dict[int, tuple[Selector, list[tuple[CellRun, int, Query]]]] = {}
        for run in active:
            for i, query in run.issue(requests):
                groups.setdefault(id(run.selector), (run.selector, []))[1].append((run, i, query))
        if not groups:
            break
        for selector, items in groups.values():
            start = time.perf_counter()
            decisions = selector.select([q for _, _, q in items])
            share = (time.perf_counter() - start) * 1000 / len(items)
            if len(decisions) != len(items):
                raise SkillbenchError(
                    f"selector {items[0][0].cell.selector!r} returned {len(decisions)} decisions "
                    f"for {len(items)} queries"
                )
            for (run, i, query), decision in zip(items, decisions, strict=True):
                split = "train" if query.request.id in run.train else "test"
                row = make_row(run.cell, query, decision, facts.get(query.listing), split, share)
                for annotator in annotators:
                    row.update(annotator.annotate_row(row, query, decision))
                rows[run.cell.index, i] = row
                writer.write(row)
                run.finish(query.request, row)
                if progress is not None:
                    progress(len(rows), total)
                if observer is not None:
                    observer.decision(row)
        active = [r for r in active if r.pos < len(requests) or r.waiting]
