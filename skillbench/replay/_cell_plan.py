"""``--dry-run`` per cell: what each model or live cell would call and cost, before any call.

A model cell (a ``Plannable`` selector such as ``litellm``) says it itself: its calls after
dedupe and cache, prompt tokens with the model's tokenizer, dollars at the list price. A
live ``agent`` cell runs the agent once per decision, with one model call carrying the
listing; that prompt also holds the agent's own system prompt and tools, which nobody knows
before a call, so its estimate counts the listing and the request only: a lower bound.
Every repeat is counted; adaptive repeats may skip some, so the figures are the most.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from skillbench.replay._types import Plannable, cell_label
from skillbench.selectors import Query, Selector
from skillbench.tokens import estimate_usd, model_tokens
from skillbench.types import CellKey, JsonValue

AGENT_COMPLETION_TOKENS = 40
"""Completion tokens assumed per live call: the first call is one short tool call."""


@dataclass(frozen=True)
class CellEstimate:
    """One model or live cell's calls and cost (its repeats pooled, as in the summary).

    Attributes:
        cell: the cell's label (catalog/profile/budget/ordering/half-life/selector).
        model: the model its calls go to.
        decisions: its decisions, every repeat counted.
        calls: the model calls they need (after the response cache, for a model cell).
        prompt_tokens: prompt tokens of those calls.
        cost_usd: their dollars at the bundled list price (None: the model has no price).
        lower_bound: the prompt tokens leave out what the agent adds (a live cell).
    """

    cell: str
    model: str | None
    decisions: int
    calls: int
    prompt_tokens: int
    cost_usd: float | None
    lower_bound: bool = False


def estimate_cell(
    key: CellKey,
    selector: Selector,
    kind: str,
    params: Mapping[str, JsonValue],
    queries: Sequence[Query],
) -> CellEstimate | None:
    """The estimate of one cell from its queries (every repeat); None for a cell that calls
    no model (embedding, lexical, baselines)."""
    label = cell_label(key)
    if isinstance(selector, Plannable):
        plan = selector.plan(queries)
        model = plan.get("model")
        tokens, cost = plan.get("est_prompt_tokens"), plan.get("est_cost_usd")
        calls = plan.get("calls")
        return CellEstimate(
            label,
            model if isinstance(model, str) else None,
            len(queries),
            calls if isinstance(calls, int) else len(queries),
            tokens if isinstance(tokens, int) else 0,
            float(cost) if isinstance(cost, int | float) else None,
        )
    model = params.get("model")
    if kind != "agent" or not isinstance(model, str):
        return None
    tokens = sum(model_tokens(f"{q.listing.text}\n{q.request.text}", model) for q in queries)
    cost = estimate_usd(model, tokens, AGENT_COMPLETION_TOKENS * len(queries))
    return CellEstimate(label, model, len(queries), len(queries), tokens, cost, lower_bound=True)
