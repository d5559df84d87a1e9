"""Spend: what the calls of a run cost, and what a run would cost before it starts.

Under ``max_cost_usd`` each call reserves its worst case before it is sent (its prompt
counted by the model's tokenizer, plus every completion token it may produce) and swaps the
reservation for the billed cost when it returns. A call is sent only while spent plus
reserved plus its own reservation stays within the cap, so concurrent calls cannot push the
total past it as long as no call costs more than it reserved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skillbench.tokens import DEFAULT_TOKEN_MODEL, litellm_offline, model_tokens

EST_COMPLETION_TOKENS = 40
"""Output tokens assumed per call for estimates: one short tool call, no prose."""


@dataclass
class Spend:
    """Running totals of the calls actually sent (cache hits cost nothing).

    ``reserved_usd`` is what calls in flight may still cost. Every method runs on the
    selector's single event loop, so check-and-reserve needs no lock.
    """

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    unpriced_calls: int = 0
    reserved_usd: float = 0.0

    def reserve(self, amount: float, cap: float) -> bool:
        """Set ``amount`` aside if the cap still allows it; False (nothing reserved) if not."""
        if self.cost_usd + self.reserved_usd + amount > cap:
            return False
        self.reserved_usd += amount
        return True

    def release(self, amount: float) -> None:
        self.reserved_usd = max(0.0, self.reserved_usd - amount)

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


def model_info(model: str) -> dict[str, Any]:
    """litellm's offline facts about ``model`` (prices, limits, features); empty if unknown."""
    known = litellm_offline().model_cost
    entry = known.get(model) or known.get(model.split("/", 1)[-1]) or {}
    return dict(entry)


def completion_ceiling(model: str, params: Mapping[str, Any]) -> int:
    """The most completion tokens one call may bill: ``max_tokens`` when set, else the
    model's output limit, else the usual size of one tool call (then not a true bound)."""
    for key in ("max_completion_tokens", "max_tokens"):
        value = params.get(key)
        if isinstance(value, int) and value > 0:
            return value
    limit = model_info(model).get("max_output_tokens")
    return int(limit) if isinstance(limit, int) and limit > 0 else EST_COMPLETION_TOKENS


def call_estimate(model: str, request: Mapping[str, Any]) -> float | None:
    """Worst-case dollars of one chat request: its prompt with the model's tokenizer
    (messages and tool schemas) plus its completion ceiling; None when unpriced."""
    litellm = litellm_offline()
    messages, tools = request.get("messages") or [], request.get("tools")
    try:
        prompt = int(litellm.token_counter(model=model, messages=messages, tools=tools))
    except Exception:
        prompt = int(
            litellm.token_counter(model=DEFAULT_TOKEN_MODEL, messages=messages, tools=tools)
        )
    return estimate_cost(model, prompt, completion_ceiling(model, request))


def prompt_tokens(model: str, text: str) -> int:
    """Tokens of ``text`` as ``model`` is billed for it (``model_tokens``)."""
    return model_tokens(text, model)


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
