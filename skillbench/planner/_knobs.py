"""Each agent's budget in its own terms: how a profile's options give the budget, and which
setting a user changes to move it.

The budget itself always comes from the profile (``Profile.make_renderer(options)``), so a
profile registered for another agent version is planned with that version's arithmetic; the
agents' own listing rules name their knobs (``KNOBS``), and this module searches each one for
the value that reaches a budget.
"""

from __future__ import annotations

from skillbench.listing import (
    KNOBS,
    Derivation,
    Knob,
    Knobs,
    Profile,
    RenderOptions,
    budget_of,
)
from skillbench.planner._records import FitValue

SEARCH_CEILING = 10**9
"""The largest value a knob is searched up to."""


def family(profile: str) -> str:
    """``my-agent@1.2.0`` → ``my-agent``: the agent a profile models."""
    return profile.partition("@")[0]


def _generic(profile: Profile, options: RenderOptions, given: int | None) -> Derivation:
    renderer = profile.make_renderer(options)
    if not renderer.budgeted:
        return Derivation(None, "characters", "no budget: every skill is listed", None)
    budget = given if given is not None else renderer.default_budget
    if given is not None or options.get("budget") is not None:
        return Derivation(budget, "characters", f"budget {budget:,} characters (given)", None)
    how = "no budget" if budget is None else f"budget {budget:,} characters (profile default)"
    return Derivation(budget, "characters", how, None)


def _no_model(model: str) -> RenderOptions:
    return {}


GENERIC = Knobs(_generic, (Knob("budget", "budget", "run config or --budget"),), _no_model)


def knobs_for(profile: str) -> Knobs:
    """The knobs of ``profile``'s agent family (a budget option alone for the others)."""
    name = family(profile)
    return KNOBS.get(name) if name in KNOBS else GENERIC


def derive(profile: Profile, options: RenderOptions, budget: int | None = None) -> Derivation:
    """The budget ``profile`` applies under ``options`` (``budget``: one given to a profile
    whose renderer takes no budget option) and how it was derived."""
    return knobs_for(profile.name).derive(profile, options, budget)


def fit_values(profile: Profile, options: RenderOptions, target: int) -> list[FitValue]:
    """For each knob, the smallest value that makes the budget at least ``target`` (the
    budget option is dropped from ``options`` when another knob is searched: it would
    override that knob)."""
    out = []
    for knob in knobs_for(profile.name).knobs:
        base = {k: v for k, v in options.items() if k != "budget" or knob.option == "budget"}
        out.append(_search(profile, base, knob, target))
    return out


def _search(profile: Profile, base: RenderOptions, knob: Knob, target: int) -> FitValue:
    """Binary search over the knob's steps: the budget grows with each knob. A knob that is
    no option of the profile is the render budget itself."""
    if knob.option not in profile.options:
        if not profile.make_renderer(base).budgeted:
            return _fit(knob, None, None, "the profile has no budget")
        return _fit(knob, str(target), target)

    def budget(step: int) -> int:
        value: float | int = step * knob.scale if knob.scale != 1 else step
        got = budget_of(profile, {**base, knob.option: value})
        return -1 if got is None else got

    top = int(SEARCH_CEILING if knob.scale == 1 else round(1 / knob.scale))
    reached = budget(top)
    if reached < target:
        return _fit(
            knob,
            None,
            reached,
            f"no value reaches {target:,}: the agent caps this budget at {reached:,}",
        )
    low, high = 1, top
    while low < high:
        mid = (low + high) // 2
        if budget(mid) >= target:
            high = mid
        else:
            low = mid + 1
    value = low * knob.scale if knob.scale != 1 else low
    return _fit(knob, knob.show(value), budget(low))


def _fit(knob: Knob, value: str | None, budget: int | None, note: str = "") -> FitValue:
    return FitValue(setting=knob.setting, where=knob.where, value=value, budget=budget, note=note)
