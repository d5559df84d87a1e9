"""Classifying one decision against its label."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:
    from skillbench.selectors import Decision

Outcome = Literal[
    "correct_skill",
    "wrong_skill",
    "missed",
    "false_trigger",
    "correct_abstain",
    "hallucinated",
    "malformed",
    "error",
]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
FALSE_INVOCATIONS: frozenset[Outcome] = frozenset({"false_trigger", "wrong_skill", "hallucinated"})


def classify(expected: Collection[str], decision: Decision, shown: Collection[str]) -> Outcome:
    """The outcome of ``decision`` given the acceptable names and the names shown.

    A name that was not shown is ``hallucinated`` even when it is the expected skill: the
    listing did not offer it, so the model guessed (seed 000 forbids guessing).
    """
    if decision.kind == "error":
        return "error"
    if decision.kind == "malformed":
        return "malformed"
    chosen = decision.chosen if decision.kind == "invoke" else None
    if chosen is not None and chosen not in shown:
        return "hallucinated"
    if not expected:
        return "correct_abstain" if chosen is None else "false_trigger"
    if chosen is None:
        return "missed"
    return "correct_skill" if chosen in expected else "wrong_skill"
