"""Why a decision's expected skill was not in the listing its selector saw.

The reasons come from the listing's own record (``explain``: the status of every catalog
skill and the profile rule behind it) and, for a budget cut, from the plan's ordering: the
rank the skill had and the room its entry needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.listing import Explanation, ListingPlan, explain
from skillbench.replay import Grid, Shown, TimelineStep

_PREFIX = {
    "disabled": "disabled",
    "inactive": "inactive paths skill",
    "hidden": "hidden by the profile",
    "overridden": "overridden",
}


def why_not_shown(
    names: Sequence[str], step: TimelineStep, grid: Grid, options: Mapping[str, Mapping[str, Any]]
) -> str:
    """One sentence per expected skill in ``names`` saying why ``step``'s listing lacks it;
    ``options`` are the config's profile options."""
    cell = step.cell
    plan, catalog = grid.plans[cell], grid.catalogs[cell.key.catalog, cell.key.profile]
    at = step.request.at
    scores = step.usage.scores(at) if at is not None else {}
    fates: dict[str, Explanation] = {}
    for fate in explain(step.shown.full, catalog, options.get(cell.key.profile)):
        fates.setdefault(fate.name, fate)  # the loaded skill first, then those it overrode
    return "; ".join(_why(n, step.shown, plan, fates, scores) for n in names)


def _why(
    name: str,
    shown: Shown,
    plan: ListingPlan,
    fates: Mapping[str, Explanation],
    scores: Mapping[str, float],
) -> str:
    if shown.listing is not shown.full and name in shown.full.shown_names:
        return f"{name}: shown in the full listing, but not among the retrieve stage's top k"
    fate = fates.get(name)
    if fate is None:
        return f"{name}: not loaded (no skill of that name in this cell's catalog)"
    if fate.fate == "dropped":
        place = plan.place_of(name, scores)
        budget = shown.full.budget
        if place is None or budget is None:
            return f"{name}: cut by the budget"
        used = shown.full.used if shown.full.used is not None else shown.full.chars
        n = len(shown.full.shown_names)
        return (
            f"{name}: cut by the budget: the ordering ranks it {place.rank + 1} of "
            f"{place.of} and its entry needs {place.chars:,} characters; the {n} "
            f"skill{'' if n == 1 else 's'} shown used {used:,} of {budget:,}"
        )
    prefix = _PREFIX.get(fate.fate, fate.fate)
    return f"{name}: {prefix}: {fate.why}" if fate.why else f"{name}: {prefix}"
