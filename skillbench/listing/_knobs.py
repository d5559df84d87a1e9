"""Each agent's budget in its own terms: how a profile's options give the budget, and which
setting a user changes to move it.

The budget itself always comes from the profile (``Profile.make_renderer(options)``), so a
profile registered for another agent version is planned with that version's arithmetic; an
agent whose budget has settings of its own registers their names here (``KNOBS``) from its
own listing rules, and the planner searches each one for the value that reaches a budget.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from skillbench._registry import Registry
from skillbench.listing._profile import Profile
from skillbench.listing._renderer import RenderOptions
from skillbench.listing._snapshot import read_snapshot

Unit = Literal["characters", "tokens"]
"""What a budget counts: characters (terminal cells, for an agent that counts them) or
approximate tokens."""


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
"""Agent family (a profile name before any ``@version``) → its knobs, registered by the
agent's own listing rules."""


def _default(profile: Profile, option: str) -> object:
    parameter = inspect.signature(profile.renderer).parameters.get(option)
    return None if parameter is None else parameter.default


def option_of(profile: Profile, options: RenderOptions, name: str) -> object:
    return options[name] if name in options else _default(profile, name)


def budget_of(profile: Profile, options: RenderOptions) -> int | None:
    return profile.make_renderer(options).default_budget


def snapshot_window(profile: Profile, options: RenderOptions) -> int | None:
    use = profile.snapshot_use(options)
    if use is None or use.snapshot in (None, "given"):
        given = options.get("snapshot")
        return getattr(given, "context_window", None)
    return read_snapshot(Path(use.snapshot)).context_window
