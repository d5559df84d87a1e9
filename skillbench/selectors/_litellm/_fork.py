"""``execute_fork``: running a triggered skill in a sub-agent to measure its real summary.

The cost model assumes the sub-agent's final answer is ``summary_tokens`` long (the
reference pipeline's 200-token rule). With ``execute_fork`` the selector runs the fork as the
reference pipeline does,
``{agent, task, model}``: a sub-agent system prompt, the expanded skill plus the request as the
task, no tools. The answer's completion tokens become ``detail["fork_summary_tokens"]``, which
the cost annotator uses instead of the default for that row.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skillbench.catalog import Skill
from skillbench.selectors._litellm._client import Fetched
from skillbench.selectors._litellm._spend import estimate_cost, prompt_tokens
from skillbench.selectors._types import Decision, Query

DEFAULT_FORK_SYSTEM_PROMPT = (
    "You are a sub-agent that the main coding agent started to run one skill. The user "
    "message holds the skill's instructions, then the user's request. Carry out the request "
    "as the skill says, then end with a concise report of what you did and found: it is the "
    "only thing the main agent will see, so keep it under 200 tokens."
)
TEXT_CHARS = 2000
"""Characters of the sub-agent's answer kept in ``detail["fork"]["text"]``."""
EST_SUMMARY_TOKENS = 200
"""Output tokens assumed per fork call for ``--dry-run`` (the cost model's default summary)."""


@dataclass(frozen=True, slots=True)
class ForkTask:
    """One sub-agent call: which skill, and the chat messages it sends (no tools)."""

    skill: str
    messages: list[dict[str, str]]


def build_task(query: Query, skill: Skill, args: str | None, system_prompt: str) -> ForkTask | None:
    """The sub-agent's messages for ``skill`` on ``query``; ``None`` when the call is denied."""
    from skillbench.cost import process_invocation  # the cost package imports selectors

    invocation = process_invocation(skill, args=args, via="model", session_id=query.request.session)
    if invocation.denied:
        return None
    task = f"{invocation.text}\n\n{query.request.text}"
    messages = [{"role": "system", "content": system_prompt}, {"role": "user", "content": task}]
    return ForkTask(skill.name, messages)


def fork_task(query: Query, decision: Decision, system_prompt: str) -> ForkTask | None:
    """The fork a decision triggers: only an invocation of a shown, model-invocable skill."""
    if decision.kind != "invoke" or decision.chosen not in query.listing.shown_names:
        return None
    entry = query.listing.entry(decision.chosen)
    if entry is None or entry.status == "disabled":
        return None
    return build_task(query, entry.skill, call_args(decision.detail), system_prompt)


def expected_task(query: Query, system_prompt: str) -> ForkTask | None:
    """For estimates: the fork if the first shown expected skill were invoked."""
    for name in query.request.expected:
        entry = query.listing.entry(name)
        if entry is not None and entry.shown:
            return build_task(query, entry.skill, query.request.args, system_prompt)
    return None


def call_args(detail: Mapping[str, Any]) -> str | None:
    """The ``args`` of the tool call that decided (``None``: none, or a file-read trigger)."""
    index = detail.get("trigger_call")
    calls = detail.get("calls") or []
    if not isinstance(index, int) or not 0 <= index < len(calls):
        return None
    raw = calls[index].get("arguments")
    try:
        parsed = raw if isinstance(raw, Mapping) else json.loads(raw or "{}")
    except (TypeError, ValueError):
        return None
    value = parsed.get("args") if isinstance(parsed, Mapping) else None
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value)


def answer_text(response: Mapping[str, Any]) -> str:
    choices = response.get("choices") or [{}]
    return str((choices[0].get("message") or {}).get("content") or "")


def fork_detail(
    task: ForkTask,
    fetched: Fetched,
    *,
    model: str,
    cached: bool,
    latency_ms: float,
) -> dict[str, Any]:
    """What a fork adds to the decision's detail.

    On success ``fork_summary_tokens`` is the answer's completion tokens (its token count
    when the server reports no usage). A failed fork records its error and leaves the key
    out, so the cost model keeps its default summary for that row.
    """
    from skillbench.cost import FORK_SUMMARY_KEY

    fork: dict[str, Any] = {"skill": task.skill, "cached": cached, "attempts": fetched.attempts}
    if fetched.response is None or fetched.error is not None:
        fork["error"] = fetched.error or "not sent: max_cost_usd reached"
        fork["status"] = fetched.status
        return {"fork": fork}
    text = answer_text(fetched.response)
    summary = fetched.usage.get("completion_tokens")
    if summary is None:
        summary = prompt_tokens(model, text)
    fork.update(
        usage=fetched.usage,
        cost_usd=fetched.cost_usd,
        latency_ms=round(latency_ms, 3),
        text=text[:TEXT_CHARS],
        text_chars=len(text),
    )
    return {FORK_SUMMARY_KEY: summary, "fork": fork}


def fork_estimate(
    model: str, tasks: Mapping[str, ForkTask], max_tokens: Any, cached: int
) -> dict[str, Any]:
    """``--dry-run`` figures for the fork calls still needed (``tasks`` by cache key)."""
    per_call = min(EST_SUMMARY_TOKENS, max_tokens) if isinstance(max_tokens, int) else None
    est_in = sum(
        prompt_tokens(model, "\n".join(m["content"] for m in t.messages)) for t in tasks.values()
    )
    est_out = len(tasks) * (per_call or EST_SUMMARY_TOKENS)
    cost = estimate_cost(model, est_in, est_out) if tasks else 0.0
    return {
        "fork_calls": len(tasks),
        "fork_cached": cached,
        "est_fork_prompt_tokens": est_in,
        "est_fork_completion_tokens": est_out,
        "est_fork_cost_usd": None if cost is None else round(cost, 6),
        "fork_note": (
            "execute_fork: sub-agent calls come on top of the selection calls; uncached "
            "selections are assumed to invoke their expected skill, one fork each "
            "(an upper-bound estimate for a model that triggers correctly)"
        ),
    }
