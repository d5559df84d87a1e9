"""Per-skill cost table and listing cost without running any model (``skillbench cost``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skillbench.catalog import ExecutionContext, Skill
from skillbench.cost._invocation import InvocationPath
from skillbench.cost._model import CostModel, Mode, break_even_turns, recommend
from skillbench.cost._pricing import Pricing
from skillbench.tokens import count_tokens

DEFAULT_HORIZON = 10
"""Remaining turns assumed when no requests say how long sessions last."""


@dataclass(frozen=True, slots=True)
class SkillCost:
    """One row of the recommendation table: a skill triggered with no arguments.

    Attributes:
        via: ``model``, or ``user`` for skills only a slash command can run.
        body_tokens: wrapped, expanded body.
        shell_injections: ``!`cmd``` commands in the body (counted, never run).
        inline_tokens / fork_tokens: all tokens of each mode over ``horizon`` remaining turns.
        break_even: fewest remaining turns at which fork is cheaper; ``None``: never.
        recommended: the cheaper mode at ``horizon``.
    """

    name: str
    source: str
    declared: ExecutionContext
    via: InvocationPath
    body_tokens: int
    shell_injections: tuple[str, ...]
    horizon: int
    inline_tokens: int
    fork_tokens: int
    inline_dollars: float
    fork_dollars: float
    break_even: int | None
    recommended: Mode

    @property
    def verdict(self) -> str:
        """``keep inline``, ``keep fork``, ``switch to fork`` or ``switch to inline``."""
        verb = "keep" if self.recommended == self.declared else "switch to"
        return f"{verb} {self.recommended}"


@dataclass(frozen=True, slots=True)
class ListingCost:
    """What the listing costs: it is sent again with every user turn."""

    chars: int
    tokens_per_turn: int
    dollars_per_turn: float
    horizon: int
    tokens_at_horizon: int
    dollars_at_horizon: float


def skill_costs(
    skills: Iterable[Skill], cost_model: CostModel, pricing: Pricing, *, horizon: int
) -> list[SkillCost]:
    """The recommendation table: each skill costed in both modes at ``horizon`` turns."""
    rows = []
    for skill in skills:
        via: InvocationPath = (
            "user" if skill.disable_model_invocation and skill.user_invocable else "model"
        )
        cost = cost_model.decision(skill, remaining_turns=horizon, via=via)
        rows.append(
            SkillCost(
                name=skill.name,
                source=skill.source,
                declared=skill.context,
                via=via,
                body_tokens=cost.body_tokens,
                shell_injections=cost.shell_injections,
                horizon=horizon,
                inline_tokens=cost.inline_tokens,
                fork_tokens=cost.fork_tokens,
                inline_dollars=cost.dollars(pricing, "inline"),
                fork_dollars=cost.dollars(pricing, "fork"),
                break_even=break_even_turns(cost),
                recommended=recommend(cost, horizon),
            )
        )
    return rows


def listing_cost(text: str, model: str, pricing: Pricing, *, horizon: int) -> ListingCost:
    """Tokens and dollars of a listing per turn and over ``horizon`` turns (uncached input)."""
    tokens = count_tokens(text, model)
    return ListingCost(
        chars=len(text),
        tokens_per_turn=tokens,
        dollars_per_turn=tokens * pricing.input,
        horizon=horizon,
        tokens_at_horizon=tokens * horizon,
        dollars_at_horizon=tokens * horizon * pricing.input,
    )
