"""The replay engine: every grid cell replays the requests in time order, in lockstep.

Per step a cell takes its usage scores at the request's time, renders its listing, asks its
selector, classifies the decision and records the invoked skill (or, with
``usage.record: label``, the expected one) into its own usage tracker (see ``_cell``).

The local executor walks the cells with ``_lockstep``: batch selectors answer the queries of
all cells at once, model selectors answer in the background, and every decision is appended
to results.jsonl the moment it finishes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from skillbench._errors import SkillbenchError
from skillbench.dataset import LabelledRequest
from skillbench.listing import Listing
from skillbench.replay._cell import CellRun, FactsCache, Recent
from skillbench.replay._config import RunConfig
from skillbench.replay._executor import EXECUTORS, ReplayJob, make_executor
from skillbench.replay._grid import (
    Grid,
    SelectorPool,
    build_grid,
    selector_env,
    train_split,
    usage_trackers,
)
from skillbench.replay._lockstep import Lockstep
from skillbench.replay._manifest import (
    ManifestWriter,
    check_inputs,
    input_digests,
    run_info,
)
from skillbench.replay._results import (
    ResultsWriter,
    RowKey,
    claim_output,
    now_iso,
    resumable_rows,
    row_key,
)
from skillbench.replay._retrieve import RetrieveStages
from skillbench.replay._summary import summarize
from skillbench.replay._types import ANNOTATORS, Annotator, Cell, RunObserver
from skillbench.results import CONFIG_COPY, RESULTS, ResultRow, RunStatus
from skillbench.selectors import (
    Calibratable,
    Preparable,
    Selector,
    Streaming,
    embedding_progress,
)
from skillbench.types import UNANSWERED, RunStopped

ABSTAINED = frozenset({"missed", "correct_abstain"})
"""Outcomes of a turn that invoked nothing."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each decision."""


@dataclass(frozen=True)
class RunResult:
    """What a run produced: where, how it ended and the summary cells.

    Attributes:
        run_dir: the run directory.
        status: ``complete``, ``incomplete`` (some decisions got no answer) or ``stopped``.
        reason: why the run is not complete (the stop reason, or the error count and first
            error message).
        cells: the summary cells.
        decisions: decisions in results.jsonl.
        resumed: decisions kept from an earlier run.
        errors: decisions that got no answer after the selector's retries.
        notes: what a catalog-size sweep drew or skipped (also in the manifest).
    """

    run_dir: Path
    status: RunStatus
    reason: str | None
    cells: list[dict[str, Any]]
    decisions: int
    resumed: int
    errors: int = 0
    notes: tuple[str, ...] = ()


def run_experiment(
    config: RunConfig,
    *,
    output: str | Path | None = None,
    limit: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
    max_concurrency: int = 8,
    quiet: bool = True,
    progress: Progress | None = None,
    observer: RunObserver | None = None,
    executor: str | None = None,
) -> RunResult:
    """Replay ``config``'s grid and write the run directory.

    Args:
        config: the validated run config.
        output: run directory (default ``config.output_dir`` or ``reports/<name>``).
        limit: replay only the first ``limit`` requests of the file (overrides the config).
        resume: keep the answered decisions of an earlier run of the same config in
            ``output`` and do only the missing and errored ones; usage replays their choices.
        overwrite: replace a run of another config found in ``output``.
        max_concurrency: calls per endpoint for model selectors.
        quiet: tell selectors not to print progress.
        progress: ``progress(done, total)`` after each decision.
        observer: told each phase of the run and each finished decision.
        executor: where the replay runs (default: the config's ``executor``, else
            ``local``); every executor writes the same run directory.

    Raises:
        SkillbenchError: an unusable output folder (before any work), or a selector that
            cannot go on (after recording ``status: failed`` and the finished decisions).
        KeyboardInterrupt: after recording ``status: interrupted``; ``--resume`` continues.
    """
    if limit is not None:
        config = config.model_copy(update={"limit": limit})
    replayer = make_executor(executor or config.executor or "local", config)
    run_dir = prepare_output(Path(output) if output is not None else config.output_path())
    config_hash = config.config_hash()
    claim_output(run_dir, config_hash, resume=resume, overwrite=overwrite)
    started = now_iso()
    if observer is not None:
        observer.phase("loading requests and catalogs")
    grid = build_grid(config)
    inputs = input_digests(config, grid)
    if resume:
        check_inputs(run_dir, config_hash, inputs)
    kept = resumable_rows(run_dir, config_hash) if resume else []
    env = selector_env(config, max_concurrency=max_concurrency, quiet=quiet)
    pool = SelectorPool(grid.selector_configs, env, config)
    if observer is not None and any(s.retrieve for s in config.selectors):
        observer.phase(f"retrieve stages: ranking the catalog for {len(grid.requests):,} requests")
    runs = _cell_runs(config, grid, pool, kept, RetrieveStages(config, env, grid.requests))
    calibrates = any(isinstance(r.selector, Calibratable) for r in runs)
    grid.train = train_split(grid.requests, config) if calibrates else frozenset()
    fitted = prepare_runs(runs, grid, observer)
    annotators = _annotators(config, grid)
    (run_dir / CONFIG_COPY).write_text(
        yaml.safe_dump(config.resolved(), sort_keys=False), encoding="utf-8"
    )
    manifest = ManifestWriter(
        run_dir, config, config_hash, started, run_info(config, grid, fitted, len(kept), inputs)
    )
    manifest.write("running")
    rows = {(r.cell.index, i): row for r in runs for i, row in _done_steps(r, grid.requests)}
    writer = ResultsWriter(run_dir / RESULTS, sorted(rows.items()))

    def finish(status: RunStatus, reason: str | None) -> RunResult:
        """Write the summary of what was done, then the manifest saying how it ended."""
        writer.close()
        if observer is not None:
            observer.phase("writing results and summary")
        ordered = [rows[k] for k in sorted(rows)]
        writer.write_sorted()
        typed = [ResultRow.model_validate(r) for r in ordered]
        summary = summarize(
            run_dir, config.name, config_hash, grid.cells, typed, fitted, grid.train, annotators
        )
        cells = [c.to_json() for c in summary]
        errors = [r for r in ordered if r["outcome"] == "error"]
        if errors and status == "complete":
            status, reason = "incomplete", _error_reason(errors)
        manifest.write(status, reason, len(errors))
        notes = (*grid.notes, *abstaining_cells(runs, rows))
        return RunResult(
            run_dir, status, reason, cells, len(ordered), len(kept), len(errors), notes
        )

    if observer is not None:
        observer.phase("replaying decisions", grid.decisions - len(rows))
    try:
        replayer.replay(
            ReplayJob(config, grid, runs, kept, env, annotators, rows, writer, progress, observer)
        )
    except RunStopped as stop:
        return finish("stopped", stop.reason)
    except KeyboardInterrupt:
        finish("interrupted", "interrupted by the user (SIGINT)")
        raise
    except SkillbenchError as exc:
        finish("failed", str(exc))
        raise
    except BaseException as exc:
        writer.close()
        manifest.write("failed", type(exc).__name__ + (f": {exc}" if str(exc) else ""))
        raise
    return finish("complete", None)


def abstaining_cells(
    runs: Sequence[CellRun], rows: Mapping[tuple[int, int], Mapping[str, Any]]
) -> list[str]:
    """A warning per model cell that abstained on every answered decision although some
    expected a skill: most likely the server drops the tools, not a careful model."""
    models = {r.cell.index: r.cell for r in runs if isinstance(r.selector, Streaming)}
    answered: dict[int, list[Mapping[str, Any]]] = {}
    for (index, _), row in rows.items():
        if index in models and row["outcome"] not in UNANSWERED:
            answered.setdefault(index, []).append(row)
    return [
        f"{models[index].label}: the model abstained on all {len(mine)} answered decisions; "
        "check that its server returns tool calls (skillbench doctor)"
        for index, mine in sorted(answered.items())
        if any(r["expected"] for r in mine) and all(r["outcome"] in ABSTAINED for r in mine)
    ]


def _error_reason(errors: Sequence[Mapping[str, Any]]) -> str:
    first = errors[0]
    message = (first.get("detail") or {}).get("error") or "no message recorded"
    return (
        f"{len(errors)} decision(s) got no answer; first ({first['request_id']}, "
        f"{first['selector']}): {message}"
    )


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
        probe = run_dir / ".skillbench-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        if isinstance(exc, NotADirectoryError):
            reason = "a parent is a file, not a folder"
        raise SkillbenchError(f"-o {run_dir}: cannot write there ({reason})") from None
    return run_dir


def _annotators(config: RunConfig, grid: Grid) -> list[Annotator]:
    """Every registered annotator that takes part in this run."""
    built = (ANNOTATORS.get(name)(config, grid) for name in ANNOTATORS)
    return [a for a in built if a is not None]


def _cell_runs(
    config: RunConfig,
    grid: Grid,
    pool: SelectorPool,
    kept: Iterable[Mapping[str, Any]],
    stages: RetrieveStages,
) -> list[CellRun]:
    done: dict[RowKey, dict[str, Any]] = {row_key(r): dict(r) for r in kept}
    tracker = usage_trackers(config)
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
                tracker(cell.half_life),
                record_label=config.usage.record == "label",
                done=mine,
                seen=interned.setdefault(id(plan), Recent()),
                retrieved=stages.top(cell.selector, plan),
            )
        )
    return runs


def distinct_selectors(runs: Sequence[CellRun]) -> list[Selector]:
    """Each selector of ``runs`` once (cells share their selector's instance)."""
    return list({id(r.selector): r.selector for r in runs}.values())


def prepare_runs(
    runs: Sequence[CellRun], grid: Grid, observer: RunObserver | None = None
) -> dict[Cell, Mapping[str, Any]]:
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
    fitted: dict[Cell, Mapping[str, Any]] = {}
    for run in runs:
        if isinstance(run.selector, Calibratable):
            run.train = grid.train
            fitted[run.cell] = run.calibrate(grid.requests)
    return fitted


def _done_steps(
    run: CellRun, requests: Sequence[LabelledRequest]
) -> Iterable[tuple[int, dict[str, Any]]]:
    for i, r in enumerate(requests):
        if r.id in run.done:
            yield i, run.done[r.id]


@EXECUTORS.register("local")
class LocalExecutor:
    """Every cell in this process (see ``_lockstep``), each row written as it finishes."""

    def replay(self, job: ReplayJob) -> None:
        Lockstep(
            job.runs,
            job.grid.requests,
            FactsCache(job.config.token_model),
            job.annotators,
            job.record,
        ).run()
