"""``--dry-run`` per cell: what each model or live cell would call and cost, before any call.

A model cell (a ``Plannable`` selector such as ``litellm``) says it itself: its calls after
dedupe and cache, prompt tokens with the model's tokenizer, dollars at the list price. A
live ``agent`` cell runs the agent once per decision, with one model call carrying the
listing; that prompt also holds the agent's own system prompt and tools. The request
template of the agent snapshot ``skillbench capture`` keeps holds them: with it they are
counted once per call; without it the estimate counts the listing and the request only, a
lower bound.
Every repeat is counted; adaptive repeats may skip some, so the figures are the most.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from skillbench._errors import SkillbenchError
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
        lower_bound: the prompt tokens leave out what the agent adds (a live cell whose
            agent has no snapshot).
        controls: the positive-control calls the cell adds at the most (every repeat), not
            in ``calls``, tokens or dollars.
    """

    cell: str
    model: str | None
    decisions: int
    calls: int
    prompt_tokens: int
    cost_usd: float | None
    lower_bound: bool = False
    controls: int = 0


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
    framing = agent_framing(str(params.get("agent")))
    tokens = sum(
        model_tokens(f"{framing or ''}\n{q.listing.text}\n{q.request.text}", model) for q in queries
    )
    cost = estimate_usd(model, tokens, AGENT_COMPLETION_TOKENS * len(queries))
    n = len(queries)
    return CellEstimate(label, model, n, n, tokens, cost, lower_bound=framing is None)


def agent_framing(agent: str) -> str | None:
    """What the agent sends besides the listing and the request (system prompt, tool
    definitions): the request template of its snapshot of the installed release (else of
    the verified one), holes left empty; None without one."""
    from skillbench.agents import AGENTS, agent_version, fill_template, find_executable
    from skillbench.listing import resolve_snapshot

    spec = AGENTS.get(agent)
    for version in dict.fromkeys((agent_version(find_executable(spec)), spec.pinned_version)):
        snapshot = resolve_snapshot("auto", agent, version) if version else None
        if snapshot is not None:
            try:
                return json.dumps(fill_template(snapshot, "", ""), ensure_ascii=False)
            except SkillbenchError:  # an older snapshot without a request template
                continue
    return None
