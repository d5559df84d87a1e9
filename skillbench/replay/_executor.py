"""Executors: where the replay of a prepared grid runs (this process, or a Ray cluster).

The engine prepares everything a run shares (grid, selectors, calibration, the run
directory) and hands an executor a ``ReplayJob``. The executor produces one results row per
missing decision and passes it to ``ReplayJob.record``; the engine writes the rows in
canonical order (cell index, then request index) when the run ends, so every executor leaves
the same run directory.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from skillbench._errors import InputError, SkillbenchError, suggest
from skillbench._registry import Registry
from skillbench.replay._results import ResultsWriter, StepKey

if TYPE_CHECKING:
    from skillbench.replay._annotators import Annotator
    from skillbench.replay._cell import CellRun
    from skillbench.replay._experiment import ExecutorChoice, Experiment
    from skillbench.replay._grid import Grid
    from skillbench.replay._types import RunObserver
    from skillbench.results import ResultRow
    from skillbench.selectors import SelectorEnv


@dataclass(frozen=True)
class ReplayJob:
    """A prepared run, ready to replay.

    Attributes:
        experiment: the resolved run config.
        grid: requests, plans and cells (``grid.train`` set when a selector calibrates).
        runs: the cells' runs in this process, prepared and calibrated.
        kept: rows kept by ``--resume`` (every cell's).
        env: what selectors are built with (cache root, seed, concurrency).
        annotators: add fields to every row.
        rows: finished rows by ``(cell index, request index)``, filled as decisions finish.
        writer: appends each finished row to results.jsonl (kill-safe progress).
        progress: ``progress(done, total)`` after each decision.
        observer: told of every finished decision.
    """

    experiment: Experiment
    grid: Grid
    runs: Sequence[CellRun]
    kept: Sequence[ResultRow]
    env: SelectorEnv
    annotators: Sequence[Annotator]
    rows: dict[StepKey, ResultRow]
    writer: ResultsWriter
    progress: Callable[[int, int], None] | None = None
    observer: RunObserver | None = None

    def record(self, cell_index: int, request_index: int, row: ResultRow) -> None:
        """Take one finished row: keep it, append it to results.jsonl, report progress."""
        key = StepKey(cell_index, request_index)
        self.rows[key] = row
        self.writer.write(key, row)
        if self.progress is not None:
            self.progress(len(self.rows), self.grid.decisions)
        if self.observer is not None:
            self.observer.decision(row)


class Executor(Protocol):
    """Replays a job's missing decisions and records every row through ``job.record``.

    Raises what the local engine raises (``RunStopped``, ``SkillbenchError``,
    ``KeyboardInterrupt``) so the engine records how the run ended the same way.
    """

    def replay(self, job: ReplayJob) -> None: ...


EXECUTORS: Registry[Callable[[], Executor]] = Registry("executor")
"""Executor factories by the name ``executor:`` / ``--executor`` takes: ``local`` (the
engine's own lockstep replay in this process) and ``ray`` (cells as Ray tasks)."""


@runtime_checkable
class CheckedExecutor(Protocol):
    """An executor that can tell up front that it cannot run ``experiment`` (a missing
    dependency, a setting it does not support)."""

    def check(self, experiment: Experiment) -> None:
        """Raise ``SkillbenchError`` when this run cannot go ahead here."""


@runtime_checkable
class StartedExecutor(Protocol):
    """An executor with something to start before it can replay (a Ray instance): the
    engine starts it before the run directory is touched, so a start that fails leaves a
    finished run in the output as it was."""

    def started(self, quiet: bool) -> AbstractContextManager[None]:
        """Start, yield while the run lasts, then stop what was started.

        Raises:
            SkillbenchError: it cannot start (one line naming what failed).
        """


@contextlib.contextmanager
def executor_started(executor: Executor, *, quiet: bool) -> Iterator[None]:
    """``executor`` started for the length of the block (nothing to do for most)."""
    if isinstance(executor, StartedExecutor):
        with executor.started(quiet):
            yield
    else:
        yield


def make_executor(choice: ExecutorChoice, experiment: Experiment) -> Executor:
    """The executor ``choice`` names, checked against ``experiment`` before the run directory
    is touched: a run it cannot do must not replace a finished run of the same config.

    Raises:
        InputError: the config names an executor that is not registered (at its line).
        SkillbenchError: so does ``--executor``, or the executor cannot do this run.
    """
    if choice.name not in EXECUTORS:
        known = EXECUTORS.names()
        reason = (
            f"unknown executor {choice.name!r}{suggest(choice.name, known)}; "
            f"choose one of: {', '.join(known)}"
        )
        if choice.where is not None:
            raise InputError(choice.where, reason)
        raise SkillbenchError(f"--executor: {reason}")
    executor = EXECUTORS.get(choice.name)()
    if isinstance(executor, CheckedExecutor):
        executor.check(experiment)
    return executor
