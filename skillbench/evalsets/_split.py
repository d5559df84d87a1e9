"""The validation split of a trigger set, drawn exactly as skill-creator draws it.

skill-creator's description loop seeds Python's generator with 42, shuffles the
should-trigger queries, then the should-not ones, and holds out ``max(1, int(n × 0.4))``
of each group, so a set evaluated here and optimised there has the same blind half.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from skillbench.evalsets._load import TriggerQuery

HOLDOUT = 0.4
SEED = 42


class ValidationSplit(NamedTuple):
    """Train and validation queries, each in the set's order."""

    train: tuple[TriggerQuery, ...]
    validation: tuple[TriggerQuery, ...]


def validation_split(
    queries: Sequence[TriggerQuery], holdout: float = HOLDOUT, seed: int = SEED
) -> ValidationSplit | None:
    """The stratified split, or None when it would leave a group without a train query
    (a group of fewer than two queries) or ``holdout`` is 0."""
    if not 0.0 <= holdout < 1.0:
        raise ValueError("holdout must be in [0, 1)")
    trigger = [q for q in queries if q.should_trigger]
    no_trigger = [q for q in queries if not q.should_trigger]
    if holdout == 0.0 or len(trigger) < 2 or len(no_trigger) < 2:
        return None
    rng = random.Random(seed)
    rng.shuffle(trigger)
    rng.shuffle(no_trigger)
    held = {
        id(q) for group in (trigger, no_trigger) for q in group[: max(1, int(len(group) * holdout))]
    }
    return ValidationSplit(
        tuple(q for q in queries if id(q) not in held),
        tuple(q for q in queries if id(q) in held),
    )
