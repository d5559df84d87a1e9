"""The ``ray`` executor: cells (and request chunks of independent cells) as Ray tasks.

The driver ships what every task shares once through Ray's object store: the experiment, the
prepared grid (requests, catalogs, listing plans), the rows a resume keeps and every
embedding the driver holds. A task rebuilds its cells' selectors, calibrates them exactly as
the driver did and replays its cells with the local lockstep engine; the driver records the
rows as tasks finish. Workers read no input files and, when every text they meet was
embedded in the driver, never load the embedding model.

Ray is imported only when this executor runs (``pip install -e '.[ray]'`` in a checkout).
``ray.init`` connects to ``RAY_ADDRESS`` when set and otherwise starts a local instance for the run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import logging
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.cache import default_cache_root
from skillbench.listing import render_listing
from skillbench.replay._annotators import run_annotators
from skillbench.replay._cell import CHUNK, FactsCache
from skillbench.replay._executor import EXECUTORS, ReplayJob
from skillbench.replay._experiment import Experiment
from skillbench.replay._grid import Grid, SelectorPool
from skillbench.replay._lockstep import Lockstep
from skillbench.replay._prepare import cell_runs, distinct_selectors, prepare_runs
from skillbench.replay._retrieve import RetrieveStages
from skillbench.results import ResultRow
from skillbench.selectors import (
    Preparable,
    SelectorEnv,
    Vectors,
    entry_text,
    preload_vectors,
    shared_vectors,
)

TASKS_PER_CPU = 2
"""Tasks per cluster CPU: enough to balance unequal cells, few enough to bound overhead."""

UNBOUNDED = 10**12
"""A budget no listing reaches: renders every listable skill in full."""


class Unit(NamedTuple):
    """One task's share: whole cells, or one request span ``[start, stop)`` of one
    independent cell (its listings do not depend on its own decisions)."""

    cells: tuple[int, ...]
    span: tuple[int, int] | None = None


@dataclass(frozen=True)
class Shipment:
    """What every task shares, put in the object store once."""

    experiment: Experiment
    grid: Grid
    kept: Sequence[ResultRow]
    env: SelectorEnv
    vectors: dict[str, Vectors]


Finished = list[tuple[int, int, ResultRow]]
"""A task's rows: ``(cell index, request index, row)``."""


def _ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise SkillbenchError(
            "the ray executor needs Ray: pip install -e '.[ray]' in the skillbench checkout "
            "(not 'pip install skillbench': that name on PyPI is another project)"
        ) from None
    return ray


@EXECUTORS.register("ray")
class RayExecutor:
    """Cells as Ray tasks on the cluster at ``RAY_ADDRESS`` (else a local instance)."""

    def check(self, experiment: Experiment) -> None:
        """Ray importable, no per-process spend cap and no adaptive repeats (a repeat waits
        for its request's earlier repeats, which other tasks hold), before the run folder is
        touched."""
        if experiment.adaptive is not None:
            raise SkillbenchError(
                "repeats_mode: adaptive needs every repeat of a request in one process; "
                "run it with the local executor"
            )
        capped = [s.label for s in experiment.selectors if s.params.get("max_cost_usd")]
        if capped:
            raise SkillbenchError(
                f"selector {capped[0]!r} sets max_cost_usd, a cap each process keeps on its "
                "own: under the ray executor every task would spend up to it; run it locally"
            )
        _ray()

    @contextlib.contextmanager
    def started(self, quiet: bool) -> Iterator[None]:
        """Ray connected to (or a local instance started) before the run directory is
        touched; any failure to start is one line, and an instance started here is shut down
        when the run ends."""
        ray = _ray()
        if ray.is_initialized():
            yield
            return
        try:
            ray.init(
                include_dashboard=False,
                logging_level=logging.ERROR if quiet else logging.WARNING,
                log_to_driver=not quiet,
                runtime_env={"env_vars": {"PYTHONPATH": _import_path()}},
            )
        except (Exception, SystemExit) as exc:
            # Ray exits (SystemExit) when the cluster at RAY_ADDRESS does not answer, and
            # raises a bare Exception when its raylet times out on a loaded machine.
            where = os.environ.get("RAY_ADDRESS") or "a local instance"
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise SkillbenchError(f"ray: cannot start or reach {where}: {first}") from None
        try:
            yield
        finally:
            ray.shutdown()

    def replay(self, job: ReplayJob) -> None:
        ray = _ray()
        pending: list[Any] = []
        try:
            warm_entry_texts(job)
            shipment = ray.put(
                Shipment(job.experiment, job.grid, list(job.kept), job.env, shared_vectors())
            )
            slots = int(ray.cluster_resources().get("CPU", 1))
            task = ray.remote(num_cpus=1)(replay_unit)
            pending = [task.remote(shipment, unit) for unit in plan_units(job, slots)]
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for cell_index, i, row in _result(ray, done[0]):
                    job.record(cell_index, i, row)
        finally:
            for ref in pending:
                ray.cancel(ref)


def _import_path() -> str:
    """Workers import this very ``skillbench`` (a source checkout too), then what they had."""
    here = str(Path(__file__).resolve().parents[2])
    return os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)


def _result(ray: ModuleType, ref: Any) -> Finished:
    """A task's rows; a task's own error is re-raised as itself (a spend stop stays a stop)."""
    try:
        rows: Finished = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        if isinstance(exc.cause, BaseException):
            raise exc.cause from None
        raise SkillbenchError(f"a ray task failed: {exc}") from None
    except ray.exceptions.RayError as exc:
        raise SkillbenchError(f"ray: {type(exc).__name__}: {exc}") from None
    return rows


def warm_entry_texts(job: ReplayJob) -> None:
    """Embed in the driver the texts listings can show: every listable skill in full and by
    name, and every plan's first listing (covers truncated forms), so workers need no model."""
    texts: dict[str, None] = {}
    for (_, profile), catalog in job.grid.catalogs.items():
        full = render_listing(
            catalog.skills,
            profile=profile,
            budget=UNBOUNDED,
            ordering="alpha",
            inactive=catalog.inactive,
            options=job.experiment.grid.profile_options.get(profile),
        )
        texts.update((t, None) for e in full.shown for t in (entry_text(e), e.name))
    for plan in {id(p): p for p in job.grid.plans.values()}.values():
        texts.update((entry_text(e), None) for e in plan.render({}).shown)
    for selector in distinct_selectors(job.runs):
        if isinstance(selector, Preparable):
            selector.prepare(list(texts))


def plan_units(job: ReplayJob, slots: int) -> list[Unit]:
    """About ``TASKS_PER_CPU`` tasks per CPU: groups of whole cells when cells are many,
    else one task per cell with independent cells cut into request spans of at least
    ``CHUNK``. Cells whose every decision a resume kept get no task."""
    n = len(job.grid.requests)
    runs = [r for r in job.runs if len(r.done) < n]
    target = max(1, slots * TASKS_PER_CPU)
    if len(runs) >= target:
        size = math.ceil(len(runs) / target)
        return [
            Unit(tuple(r.cell.index for r in runs[k : k + size])) for k in range(0, len(runs), size)
        ]
    pieces = max(1, min(math.ceil(target / max(1, len(runs))), n // CHUNK))
    units: list[Unit] = []
    for run in runs:
        if run.dependent or pieces == 1:
            units.append(Unit((run.cell.index,)))
            continue
        bounds = [round(k * n / pieces) for k in range(pieces + 1)]
        units += [Unit((run.cell.index,), (lo, hi)) for lo, hi in itertools.pairwise(bounds)]
    return units


def replay_unit(shipment: Shipment, unit: Unit) -> Finished:
    """Run in a Ray worker: replay ``unit``'s cells with the local engine, return the rows."""
    preload_vectors(shipment.vectors)
    experiment, grid = shipment.experiment, shipment.grid
    env = shipment.env
    if os.environ.get("SKILLBENCH_CACHE_DIR"):
        env = dataclasses.replace(env, cache_dir=default_cache_root())
    mine = dataclasses.replace(grid, cells=[grid.cells[i] for i in unit.cells])
    pool = SelectorPool(grid.selectors, env)
    stages = RetrieveStages(experiment.selectors, env, grid.requests)
    runs = cell_runs(mine, pool, shipment.kept, stages, experiment.usage)
    prepare_runs(runs, grid)
    if unit.span is not None:
        for run in runs:
            assert not run.dependent
            run.span = range(*unit.span)
    rows: Finished = []
    facts = FactsCache(experiment.token_model)
    Lockstep(
        runs,
        grid.requests,
        facts,
        run_annotators(experiment, grid),
        lambda c, i, row: rows.append((c, i, row)),
        keep_raw=experiment.keep_raw_answers,
    ).run()
    return rows
