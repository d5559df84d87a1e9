"""Selectors: the models under test (offline baselines, embedding, lexical, hybrid, litellm)."""

from skillbench.selectors._types import Decision, DecisionKind, Query, Selector

__all__ = ["Decision", "DecisionKind", "Query", "Selector"]
