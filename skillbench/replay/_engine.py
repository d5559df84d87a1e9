"""The replay engine: every grid cell replays the requests in time order, in lockstep.

Per step a cell takes its usage scores at the request's time, renders its listing, asks its
selector, classifies the decision and records the invoked skill (or, with
``usage.record: label``, the expected one) into its own usage tracker (see ``_cell``).

``run_experiment`` resolves the config, claims the run directory, prepares the run
(``_prepare``) and hands it to an executor (``_local`` in this process, ``_ray`` on a
cluster); every decision is appended to results.jsonl the moment it finishes, and the run
ends with the summary and the manifest saying how it ended.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.dataset import LabelledRequest
from skillbench.replay import _local, _ray  # noqa: F401  (register the executors)
from skillbench.replay._cell import CellRun
from skillbench.replay._config import RunConfig
from skillbench.replay._controls import ask_controls, control_steps, failed_controls, kept_controls
from skillbench.replay._executor import Executor, ReplayJob, executor_started, make_executor
from skillbench.replay._experiment import Experiment, resolve_experiment
from skillbench.replay._prepare import prepare_run, run_folder
from skillbench.replay._results import ResultsWriter, StepKey, claim_output, now_iso
from skillbench.replay._summary import summarize
from skillbench.replay._types import RunObserver
from skillbench.results import RESULTS, CellFields, ResultRow, RunStatus
from skillbench.selectors import Streaming
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
    cells: list[CellFields]
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
    allow_failed_controls: bool = False,
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
        allow_failed_controls: a cell whose positive controls failed leaves the run
            ``complete`` (the cell still says so) instead of ``incomplete``.

    Raises:
        SkillbenchError: an unusable output folder, or one another process is writing
            (before any work: one writer per run folder), or a selector that cannot go on
            (after recording ``status: failed`` and the finished decisions).
        KeyboardInterrupt: after recording ``status: interrupted``; ``--resume`` continues.
    """
    experiment = resolve_experiment(config, limit=limit, executor=executor)
    replayer = make_executor(experiment.executor, experiment)
    target = Path(output) if output is not None else experiment.output
    with executor_started(replayer, quiet=quiet), run_folder(target) as run_dir:
        return _replay(
            experiment,
            replayer,
            run_dir,
            resume=resume,
            overwrite=overwrite,
            max_concurrency=max_concurrency,
            quiet=quiet,
            progress=progress,
            observer=observer,
            allow_failed_controls=allow_failed_controls,
        )


def _replay(
    experiment: Experiment,
    replayer: Executor,
    run_dir: Path,
    *,
    resume: bool,
    overwrite: bool,
    max_concurrency: int,
    quiet: bool,
    progress: Progress | None,
    observer: RunObserver | None,
    allow_failed_controls: bool,
) -> RunResult:
    """The run once its executor is started and its folder held: claim the folder, prepare,
    replay, record."""
    claim_output(run_dir, experiment.config_hash, resume=resume, overwrite=overwrite)
    prepared = prepare_run(
        experiment,
        run_dir,
        started=now_iso(),
        resume=resume,
        max_concurrency=max_concurrency,
        quiet=quiet,
        observer=observer,
    )
    grid, runs, kept, manifest = prepared.grid, prepared.runs, prepared.kept, prepared.manifest
    rows = {StepKey(r.cell.index, i): row for r in runs for i, row in _done_steps(r, grid.requests)}
    controls = control_steps(experiment, runs, grid.requests)
    rows.update(kept_controls(controls, kept))
    writer = ResultsWriter(run_dir / RESULTS, sorted(rows.items()))

    def finish(status: RunStatus, reason: str | None) -> RunResult:
        """Write the summary of what was done, then the manifest saying how it ended."""
        writer.close()
        if observer is not None:
            observer.phase("writing results and summary")
        ordered = [rows[k] for k in sorted(rows)]
        writer.write_sorted()
        cells = summarize(
            run_dir,
            experiment.name,
            experiment.config_hash,
            grid.cells,
            ordered,
            prepared.fitted,
            grid.train,
            prepared.annotators,
            experiment.controls.threshold,
        )
        errors = [r for r in ordered if r.outcome == "error"]
        failed = failed_controls(cells)
        if errors and status == "complete":
            status, reason = "incomplete", _error_reason(errors)
        elif failed and status == "complete" and not allow_failed_controls:
            status, reason = "incomplete", failed
        manifest.write(status, reason, len(errors))
        notes = (*grid.notes, *abstaining_cells(runs, rows), *([failed] if failed else []))
        return RunResult(
            run_dir, status, reason, cells, len(ordered), len(kept), len(errors), notes
        )

    if observer is not None:
        observer.phase("replaying decisions", grid.decisions - len(rows))
    job = ReplayJob(
        experiment,
        grid,
        runs,
        kept,
        prepared.env,
        prepared.annotators,
        rows,
        writer,
        progress,
        observer,
    )
    try:
        replayer.replay(job)
        ask_controls(job, controls)
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


def abstaining_cells(runs: Sequence[CellRun], rows: Mapping[StepKey, ResultRow]) -> list[str]:
    """A warning per model cell that abstained on every answered decision although some
    expected a skill: most likely the server drops the tools, not a careful model."""
    models = {r.cell.index: r.cell for r in runs if isinstance(r.selector, Streaming)}
    answered: dict[int, list[ResultRow]] = {}
    for key, row in rows.items():
        if key.cell in models and row.outcome not in UNANSWERED and not row.control:
            answered.setdefault(key.cell, []).append(row)
    return [
        f"{models[index].label}: the model abstained on all {len(mine)} answered decisions; "
        "check that its server returns tool calls (skillbench doctor)"
        for index, mine in sorted(answered.items())
        if any(r.expected for r in mine) and all(r.outcome in ABSTAINED for r in mine)
    ]


def _error_reason(errors: Sequence[ResultRow]) -> str:
    first = errors[0]
    message = first.error
    return (
        f"{len(errors)} decision(s) got no answer; first ({first.request_id}, "
        f"{first.selector}): {message}"
    )


def _done_steps(
    run: CellRun, requests: Sequence[LabelledRequest]
) -> Iterable[tuple[int, ResultRow]]:
    for i, r in enumerate(requests):
        if r.id in run.done:
            yield i, run.done[r.id]
