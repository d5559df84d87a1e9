"""Spend: what the calls of a run cost, and what a run would cost before it starts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skillbench.tokens import DEFAULT_TOKEN_MODEL, count_tokens, litellm_offline

EST_COMPLETION_TOKENS = 40
"""Output tokens assumed per call for estimates: one short tool call, no prose."""


@dataclass
class Spend:
    """Running totals of the calls actually sent (cache hits cost nothing)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    unpriced_calls: int = 0

    def add(self, usage: Mapping[str, int], cost_usd: float | None) -> None:
        self.calls += 1
        self.prompt_tokens += usage.get("prompt_tokens", 0)
        self.completion_tokens += usage.get("completion_tokens", 0)
        if cost_usd is None:
            self.unpriced_calls += 1
        else:
            self.cost_usd += cost_usd

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_usd": round(self.cost_usd, 6),
            "unpriced_calls": self.unpriced_calls,
        }


def prompt_tokens(model: str, text: str) -> int:
    """Tokens of ``text`` with ``model``'s tokenizer when litellm knows it, else gpt-4o's."""
    try:
        return count_tokens(text, model)
    except Exception:
        return count_tokens(text, DEFAULT_TOKEN_MODEL)


def estimate_cost(model: str, prompt: int, completion: int) -> float | None:
    """Dollars for these token counts from litellm's offline cost map; None when unpriced."""
    litellm = litellm_offline()
    try:
        p, c = litellm.cost_per_token(
            model=model, prompt_tokens=prompt, completion_tokens=completion
        )
    except Exception:
        return None
    return float(p) + float(c)
