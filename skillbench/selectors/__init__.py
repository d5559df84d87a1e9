"""Selectors: the models under test (offline baselines, embedding, lexical, hybrid, litellm)."""

from skillbench.selectors._types import (
    Calibratable,
    Decision,
    DecisionKind,
    Query,
    Selector,
    SelectorEnv,
    SelectorFactory,
)

__all__ = [
    "Calibratable",
    "Decision",
    "DecisionKind",
    "Query",
    "Selector",
    "SelectorEnv",
    "SelectorFactory",
]
