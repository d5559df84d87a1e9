"""Each agent's budget in its own terms: how a profile's options give the budget, and which
setting a user changes to move it.

The budget itself always comes from the profile (``Profile.make_renderer(options)``), so a
profile registered for another agent version is planned with that version's arithmetic; this
module only names the knobs and searches each one for the value that reaches a budget.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from skillbench._registry import Registry
from skillbench.listing import Profile, RenderOptions, budget_basis, older_model, read_snapshot
from skillbench.planner._records import FitValue

Unit = Literal["characters", "tokens"]
"""What a budget counts: characters (terminal cells for Claude Code) or approximate tokens."""

SEARCH_CEILING = 10**9
"""The largest value a knob is searched up to."""


class Derivation(NamedTuple):
    """A profile's budget under some options, and where it comes from.

    ``window`` is the model's context window in tokens when the budget follows one (None:
    unknown or irrelevant); ``how`` is one line a user can check by hand.
    """

    budget: int | None
    unit: Unit
    how: str
    window: int | None


@dataclass(frozen=True)
class Knob:
    """One setting that moves the budget: a profile option and how a user sets it.

    Attributes:
        option: the profile option it maps to.
        setting: the agent's own name for it (an environment variable, a settings key).
        where: where the user sets it.
        scale: the option's resolution (1 for integers; 1e-6 for a fraction).
        show: the value as the user writes it.
    """

    option: str
    setting: str
    where: str
    scale: float = 1.0
    show: Callable[[float], str] = str


@dataclass(frozen=True)
class Knobs:
    """How one agent family's budget is derived and moved."""

    derive: Callable[[Profile, RenderOptions, int | None], Derivation]
    knobs: tuple[Knob, ...]
    model_options: Callable[[str], RenderOptions]


KNOBS: Registry[Knobs] = Registry("budget knobs")
"""Agent family (a profile name before any ``@version``) → its knobs."""


def family(profile: str) -> str:
    """``codex@0.171.0`` → ``codex``: the agent a profile models."""
    return profile.partition("@")[0]


def _default(profile: Profile, option: str) -> object:
    parameter = inspect.signature(profile.renderer).parameters.get(option)
    return None if parameter is None else parameter.default


def _option(profile: Profile, options: RenderOptions, name: str) -> object:
    return options[name] if name in options else _default(profile, name)


def _budget_of(profile: Profile, options: RenderOptions) -> int | None:
    return profile.make_renderer(options).default_budget


def _snapshot_window(profile: Profile, options: RenderOptions) -> int | None:
    use = profile.snapshot_use(options)
    if use is None or use.snapshot in (None, "given"):
        given = options.get("snapshot")
        return getattr(given, "context_window", None)
    return read_snapshot(Path(use.snapshot)).context_window


def _claude_code(profile: Profile, options: RenderOptions, given: int | None) -> Derivation:
    budget = _budget_of(profile, options)
    if options.get("budget") is not None:
        return Derivation(budget, "characters", f"SLASH_COMMAND_TOOL_CHAR_BUDGET={budget}", None)
    if options.get("legacy"):
        return Derivation(budget, "characters", f"legacy flat budget of {budget:,}", None)
    fraction = _option(profile, options, "budget_fraction")
    assert isinstance(fraction, int | float)
    model, option, cpt = (options.get(k) for k in ("model", "context_window", "chars_per_token"))
    snapshot_window = _snapshot_window(profile, options)
    basis = budget_basis(
        model if isinstance(model, str) else None,
        option if isinstance(option, int) else None,
        cpt if isinstance(cpt, int) else None,
        snapshot_window,
    )
    if isinstance(option, int):
        source = "given"
    elif isinstance(model, str) and older_model(model):
        source = f"{model}'s"
    else:
        source = "the agent snapshot's model" if snapshot_window else "default model"
    how = (
        f"floor({basis.window:,} tokens ({source}) × {basis.chars_per_token} characters/token × "
        f"skillListingBudgetFraction {fraction:g}) = {budget:,}"
    )
    return Derivation(budget, "characters", how, basis.window)


def _claude_code_model(model: str) -> RenderOptions:
    """The profile takes the model itself: it knows which models budget differently."""
    return {"model": model}


def _codex(profile: Profile, options: RenderOptions, given: int | None) -> Derivation:
    budget = _budget_of(profile, options)
    window = _option(profile, options, "context_window")
    if options.get("budget") is not None:
        unit: Unit = "tokens" if window else "characters"
        return Derivation(budget, unit, f"budget option {budget:,} {unit}", None)
    if not isinstance(window, int) or window <= 0:
        return Derivation(budget, "characters", f"no context window: {budget:,} characters", None)
    how = f"2% of {window:,} tokens of context window (capped by the agent) = {budget:,} tokens"
    return Derivation(budget, "tokens", how, window)


def _codex_model(model: str) -> RenderOptions:
    """Codex budgets every model offline at its default window; set ``--window`` instead."""
    return {}


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


def _tokens(value: float) -> str:
    return f"{value:,.0f} tokens"


def _fraction(value: float) -> str:
    return f"{value:.6f}".rstrip("0")


KNOBS.register("claude-code")(
    Knobs(
        _claude_code,
        (
            Knob("budget", "SLASH_COMMAND_TOOL_CHAR_BUDGET", "environment variable"),
            Knob("budget_fraction", "skillListingBudgetFraction", "settings.json", 1e-6, _fraction),
            Knob("context_window", "a model with a context window of", "--model", 1, _tokens),
        ),
        _claude_code_model,
    )
)
KNOBS.register("codex")(
    Knobs(
        _codex,
        (Knob("context_window", "model_context_window", "config.toml"),),
        _codex_model,
    )
)
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
        got = _budget_of(profile, {**base, knob.option: value})
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
