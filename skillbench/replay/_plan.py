"""``--dry-run``: the grid's size and what plannable selectors say the run would cost."""

from __future__ import annotations

from typing import Any

from skillbench.replay._config import RunConfig
from skillbench.replay._grid import Grid, SelectorPool, build_grid, selector_env, usage_trackers
from skillbench.replay._retrieve import RetrieveStages
from skillbench.replay._timeline import listing_at
from skillbench.replay._types import Plannable
from skillbench.selectors import Query


def dry_run(
    config: RunConfig, *, limit: int | None = None, max_concurrency: int = 8
) -> dict[str, Any]:
    """What ``run_experiment`` would do, without asking any selector to decide.

    ``cells`` counts listing settings × selectors (a cell's repeats are one cell, as in the
    summary); ``decisions`` counts every repeat.

    Plannable selectors get every query of their cells with listings as the warm-start usage
    shows them (the replay's own history cannot be known in advance), cut to the top k by
    their retrieve stage if any: an estimate.
    """
    if limit is not None:
        config = config.model_copy(update={"limit": limit})
    grid = build_grid(config)
    env = selector_env(config, max_concurrency=max_concurrency, quiet=True)
    pool = SelectorPool(grid.selector_configs, env, config)
    tracker = usage_trackers(config)
    stages = RetrieveStages(config, env, grid.requests)
    selectors: dict[str, Any] = {}
    for name, selector in pool.shared().items():
        cells = [c for c in grid.cells if c.selector == name]
        entry: dict[str, Any] = {
            "type": grid.selector_configs[name].type,
            "cells": len({c.key for c in cells}),
            "decisions": len(cells) * len(grid.requests),
        }
        if isinstance(selector, Plannable):
            queries = []
            for cell in cells:
                plan, usage = grid.plans[cell], tracker(cell.half_life)
                top = stages.top(name, plan)
                for r in grid.requests:
                    shown = listing_at(plan, usage, r, None if top is None else top[r.id])
                    queries.append(Query(r, shown.listing, cell.repeat, cell.label))
            entry["plan"] = dict(selector.plan(queries))
        selectors[name] = entry
    return {
        "name": config.name,
        **({"notes": grid.notes} if grid.notes else {}),
        "requests": len(grid.requests),
        "cells": len({c.key for c in grid.cells}),
        "repeats": config.repeats,
        "decisions": grid.decisions,
        "grid": {
            "catalogs": list(config.catalogs),
            "profiles": config.profiles,
            "budgets": sorted({c.budget for c in grid.cells}, key=lambda b: (b is None, b or 0)),
            "orderings": config.orderings,
            "half_lives": config.half_lives,
            "selectors": [s.label for s in config.selectors],
            "repeats": config.repeats,
            **_sweep(grid),
        },
        "selectors": selectors,
    }


def _sweep(grid: Grid) -> dict[str, Any]:
    """The catalog sizes and distractor modes the grid runs (nothing without a sweep)."""
    sizes = sorted({c.catalog_size for c in grid.cells if c.catalog_size is not None})
    if not sizes:
        return {}
    return {
        "catalog_sizes": sizes,
        "distractors": list(dict.fromkeys(c.distractors for c in grid.cells)),
    }
