"""``--dry-run``: the grid's size and what plannable selectors say the run would cost."""

from __future__ import annotations

from dataclasses import dataclass, replace

from skillbench.replay._cell_plan import CellEstimate, estimate_cell
from skillbench.replay._config import RunConfig
from skillbench.replay._executor import make_executor
from skillbench.replay._experiment import resolve_experiment
from skillbench.replay._grid import SelectorPool, build_grid
from skillbench.replay._retrieve import RetrieveStages
from skillbench.replay._timeline import listing_at
from skillbench.replay._types import Plannable
from skillbench.selectors import Controllable, Query
from skillbench.types import CellKey, DistractorMode, JsonObject


@dataclass(frozen=True)
class SelectorPlan:
    """What one configured selector would do.

    Attributes:
        type: its registry type.
        cells: its summary cells (repeats pooled).
        decisions: its decisions, every repeat counted.
        estimate: what a ``Plannable`` selector says the run would cost it (calls, cached,
            tokens, dollars …; None for the others).
    """

    type: str
    cells: int
    decisions: int
    estimate: JsonObject | None = None


@dataclass(frozen=True)
class GridAxes:
    """The grid's axes as the run will replay them (budgets as the renderers applied them;
    the size axes only in a catalog-size sweep)."""

    catalogs: tuple[str, ...]
    profiles: tuple[str, ...]
    budgets: tuple[int | None, ...]
    orderings: tuple[str, ...]
    half_lives: tuple[str, ...]
    selectors: tuple[str, ...]
    repeats: int
    catalog_sizes: tuple[int, ...] = ()
    distractors: tuple[DistractorMode | None, ...] = ()


@dataclass(frozen=True)
class DryRun:
    """What ``run_experiment`` would do: ``cells`` counts listing settings × selectors (a
    cell's repeats are one cell, as in the summary); ``decisions`` counts every repeat."""

    name: str
    requests: int
    cells: int
    repeats: int
    decisions: int
    grid: GridAxes
    selectors: dict[str, SelectorPlan]
    notes: tuple[str, ...] = ()
    estimates: tuple[CellEstimate, ...] = ()
    """Per model or live cell: its calls, prompt tokens and dollars (``_cell_plan``)."""
    adaptive: bool = False
    """Adaptive repeats: the calls are the most the run makes."""


def dry_run(
    config: RunConfig,
    *,
    limit: int | None = None,
    max_concurrency: int = 8,
    executor: str | None = None,
) -> DryRun:
    """What ``run_experiment`` would do, without asking any selector to decide; an executor
    that is unknown or cannot do the run is reported as the run would report it.

    Plannable selectors get every query of their cells with listings as the warm-start usage
    shows them (the replay's own history cannot be known in advance), cut to the top k by
    their retrieve stage if any: an estimate.
    """
    experiment = resolve_experiment(config, limit=limit, executor=executor)
    make_executor(experiment.executor, experiment)
    spec = experiment.grid
    grid = build_grid(spec)
    env = experiment.selector_env(max_concurrency=max_concurrency, quiet=True)
    pool = SelectorPool(grid.selectors, env)
    tracker = experiment.usage.trackers()
    stages = RetrieveStages(spec.selectors, env, grid.requests)
    selectors: dict[str, SelectorPlan] = {}
    estimates: list[CellEstimate] = []
    for name, selector in pool.shared().items():
        cells = [c for c in grid.cells if c.key.selector == name]
        sel = grid.selectors[name]
        estimate = None
        if isinstance(selector, Plannable) or sel.type == "agent":
            by_key: dict[CellKey, list[Query]] = {}
            controls: dict[CellKey, int] = {}
            for cell in cells:
                plan, usage = grid.plans[cell], tracker(cell.key.half_life)
                top = stages.top(name, plan)
                if isinstance(selector, Controllable) and top is None:
                    controls[cell.key] = controls.get(cell.key, 0) + experiment.controls.per_cell
                for r in grid.requests:
                    shown = listing_at(plan, usage, r, None if top is None else top[r.id])
                    query = Query(r, shown.listing, cell.repeat, cell.label)
                    by_key.setdefault(cell.key, []).append(query)
            for key, queries in by_key.items():
                found = estimate_cell(key, selector, sel.type, sel.params, queries)
                if found is not None:
                    estimates.append(replace(found, controls=controls.get(key, 0)))
            if isinstance(selector, Plannable):
                estimate = dict(selector.plan([q for qs in by_key.values() for q in qs]))
        selectors[name] = SelectorPlan(
            grid.selectors[name].type,
            len({c.key for c in cells}),
            len(cells) * len(grid.requests),
            estimate,
        )
    keys = [c.key for c in grid.cells]
    sizes = sorted({k.catalog_size for k in keys if k.catalog_size is not None})
    axes = GridAxes(
        catalogs=tuple(v.name for v in spec.catalogs),
        profiles=spec.profiles,
        budgets=tuple(sorted({k.budget for k in keys}, key=lambda b: (b is None, b or 0))),
        orderings=spec.orderings,
        half_lives=spec.half_lives,
        selectors=tuple(s.label for s in spec.selectors),
        repeats=spec.repeats,
        catalog_sizes=tuple(sizes),
        distractors=tuple(dict.fromkeys(k.distractors for k in keys)) if sizes else (),
    )
    return DryRun(
        name=experiment.name,
        requests=len(grid.requests),
        cells=len(set(keys)),
        repeats=spec.repeats,
        decisions=grid.decisions,
        grid=axes,
        selectors=selectors,
        notes=tuple(grid.notes),
        estimates=tuple(estimates),
        adaptive=experiment.adaptive is not None,
    )
