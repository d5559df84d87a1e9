"""What fits: the smallest budget that lists every description in full, the value of each
of the agent's knobs that gives it, and the coverage curve around it.

A listing "lists every description in full" when it is the listing with room for everything
(the same text). The renderer's own count of what it used, at unlimited room, is that budget;
it is checked by rendering at it and one step below, and searched for when a profile does not
count (or the check fails).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skillbench.listing import SHOWN_STATUSES
from skillbench.planner._knobs import Derivation, fit_values
from skillbench.planner._records import CurvePoint, Fits, Loss
from skillbench.planner._setup import UNLIMITED, Setup, ShownEntry

CURVE_POINTS = 16
"""Evenly spaced budgets on the coverage curve (the default and the fit are added)."""
LOSSES_SHOWN = 20


def smallest_fit(setup: Setup) -> tuple[int, bool]:
    """The smallest budget at which the listing equals the unlimited one, and whether one
    step below it differs (False only for an empty listing)."""
    whole = setup.full.text

    def fits(budget: int) -> bool:
        return setup.render(budget).text == whole

    claimed = setup.full.used
    if claimed is not None and fits(claimed) and (claimed == 0 or not fits(claimed - 1)):
        return claimed, claimed > 0
    low, high = 0, UNLIMITED
    while low < high:
        mid = (low + high) // 2
        if fits(mid):
            high = mid
        else:
            low = mid + 1
    return low, low > 0 and not fits(low - 1)


def _grid(top: int, extra: Sequence[int | None]) -> list[int]:
    step = max(top // CURVE_POINTS, 1)
    points = {step * i for i in range(CURVE_POINTS + 2)}
    points |= {b for b in extra if b is not None}
    return sorted(points)


def coverage(setup: Setup, budgets: Sequence[int]) -> tuple[list[CurvePoint], list[Loss]]:
    """Share of listable skills in full and shown at each budget (no usage), and the skills
    in the order they lose their descriptions as the budget shrinks."""
    full = {e.name: e.status for e in setup.full.entries if e.status in SHOWN_STATUSES}
    if not full:
        return [CurvePoint(budget=b, full=0.0, shown=0.0) for b in budgets], []
    points, kept_from = [], dict.fromkeys(full, 0)
    for budget in sorted(budgets, reverse=True):
        listed = setup.shown(budget)
        whole = _whole(listed, full)
        for name in full:
            if name not in whole and kept_from[name] == 0:
                kept_from[name] = _next_above(budget, budgets)
        shown = sum(1 for e in listed if e.name in full)
        points.append(
            CurvePoint(budget=budget, full=len(whole) / len(full), shown=shown / len(full))
        )
    losses = sorted(
        (Loss(name=n, below=b) for n, b in kept_from.items() if b), key=lambda x: (-x.below, x.name)
    )
    return points[::-1], losses[:LOSSES_SHOWN]


def _whole(listed: Sequence[ShownEntry], full: Mapping[str, str]) -> set[str]:
    """Skills shown as they are with room for everything."""
    return {e.name for e in listed if full.get(e.name) == e.status}


def _next_above(budget: int, budgets: Sequence[int]) -> int:
    return min((b for b in budgets if b > budget), default=budget + 1)


def what_fits(setup: Setup, derivation: Derivation) -> Fits:
    """The fit, the knob values that reach it, the per-entry cap's victims and the curve."""
    needed, checked = smallest_fit(setup)
    values = fit_values(setup.profile, setup.options, needed)
    capped = [e.name for e in setup.full.entries if e.status == "truncated"]
    top = max(needed, derivation.budget or 0)
    curve, losses = coverage(setup, _grid(top + top // 10, [derivation.budget, needed]))
    return Fits(
        budget=needed,
        unit=derivation.unit,
        default_budget=derivation.budget,
        fits_default=derivation.budget is None or derivation.budget >= needed,
        checked_below=checked,
        values=values,
        capped=capped,
        curve=curve,
        losing_first=losses,
    )
