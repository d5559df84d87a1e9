"""``--dry-run``: the grid's size and what plannable selectors say the run would cost."""

from __future__ import annotations

from skillbench.replay._config import RunConfig
from skillbench.replay._experiment import resolve_experiment
from skillbench.replay._grid import Grid, SelectorPool, build_grid
from skillbench.replay._retrieve import RetrieveStages
from skillbench.replay._timeline import listing_at
from skillbench.replay._types import Plannable
from skillbench.selectors import Query
from skillbench.types import JsonObject


def dry_run(config: RunConfig, *, limit: int | None = None, max_concurrency: int = 8) -> JsonObject:
    """What ``run_experiment`` would do, without asking any selector to decide.

    ``cells`` counts listing settings × selectors (a cell's repeats are one cell, as in the
    summary); ``decisions`` counts every repeat.

    Plannable selectors get every query of their cells with listings as the warm-start usage
    shows them (the replay's own history cannot be known in advance), cut to the top k by
    their retrieve stage if any: an estimate.
    """
    experiment = resolve_experiment(config, limit=limit)
    spec = experiment.grid
    grid = build_grid(spec)
    env = experiment.selector_env(max_concurrency=max_concurrency, quiet=True)
    pool = SelectorPool(grid.selectors, env)
    tracker = experiment.usage.trackers()
    stages = RetrieveStages(spec.selectors, env, grid.requests)
    selectors: JsonObject = {}
    for name, selector in pool.shared().items():
        cells = [c for c in grid.cells if c.key.selector == name]
        entry: JsonObject = {
            "type": grid.selectors[name].type,
            "cells": len({c.key for c in cells}),
            "decisions": len(cells) * len(grid.requests),
        }
        if isinstance(selector, Plannable):
            queries = []
            for cell in cells:
                plan, usage = grid.plans[cell], tracker(cell.key.half_life)
                top = stages.top(name, plan)
                for r in grid.requests:
                    shown = listing_at(plan, usage, r, None if top is None else top[r.id])
                    queries.append(Query(r, shown.listing, cell.repeat, cell.label))
            entry["plan"] = dict(selector.plan(queries))
        selectors[name] = entry
    budgets = {c.key.budget for c in grid.cells}
    return {
        "name": experiment.name,
        **({"notes": [*grid.notes]} if grid.notes else {}),
        "requests": len(grid.requests),
        "cells": len({c.key for c in grid.cells}),
        "repeats": spec.repeats,
        "decisions": grid.decisions,
        "grid": {
            "catalogs": [v.name for v in spec.catalogs],
            "profiles": list(spec.profiles),
            "budgets": sorted(budgets, key=lambda b: (b is None, b or 0)),
            "orderings": list(spec.orderings),
            "half_lives": list(spec.half_lives),
            "selectors": [s.label for s in spec.selectors],
            "repeats": spec.repeats,
            **_sweep(grid),
        },
        "selectors": selectors,
    }


def _sweep(grid: Grid) -> JsonObject:
    """The catalog sizes and distractor modes the grid runs (nothing without a sweep)."""
    sizes = sorted({c.key.catalog_size for c in grid.cells if c.key.catalog_size is not None})
    if not sizes:
        return {}
    return {
        "catalog_sizes": [*sizes],
        "distractors": list(dict.fromkeys(c.key.distractors for c in grid.cells)),
    }
