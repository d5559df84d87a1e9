"""The model proposer: a chat model behind litellm, on the same client, cache, retries and
spend cap as the ``litellm`` selector (``skillbench.selectors._litellm``).

Every answer is cached under skillbench's cache key (model, endpoint, messages, sampling
params), so re-running tune with the same inputs sends nothing; a failed call is an error,
never an empty proposal; the spend cap stops tune cleanly with what it found so far.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.authoring._proposers import (
    PROPOSERS,
    Proposal,
    ProposalRequest,
    Proposer,
    ProposerStopped,
)
from skillbench.cache import ResponseCache, cache_key
from skillbench.selectors import SelectorEnv
from skillbench.selectors._litellm import LitellmParams, parse_params
from skillbench.selectors._litellm._client import RetryPolicy, call_model, runtime, secrets
from skillbench.selectors._litellm._spend import Spend
from skillbench.types import JsonObject

SYSTEM_PROMPT = (
    "You rewrite the one-line descriptions of skills that a coding agent picks from a "
    "listing. A good description says what the skill is for in the words users use, and "
    "what separates it from similar skills. Keep facts from the skill's instructions; do "
    "not invent features."
)

_JSON = re.compile(r"\{.*\}", re.S)


def parse_candidates(content: str) -> tuple[str, ...]:
    """``descriptions`` from the model's JSON answer (fenced or bare); () when unreadable."""
    match = _JSON.search(content or "")
    if match is None:
        return ()
    try:
        data = json.loads(match.group())
    except json.JSONDecodeError:
        return ()
    found = data.get("descriptions") if isinstance(data, dict) else None
    if not isinstance(found, list):
        return ()
    return tuple(" ".join(d.split()) for d in found if isinstance(d, str) and d.strip())


class LitellmProposer:
    """Asks ``params.model`` for candidates; one call per proposal request."""

    name = "litellm"

    def __init__(self, params: LitellmParams, cache_dir: Path | None) -> None:
        self.params = params
        self.cache = ResponseCache(cache_dir) if params.cache and cache_dir else None
        self.policy = RetryPolicy(params.max_attempts, params.backoff_s, params.timeout)
        self.spend = Spend()
        self.cached_calls = 0

    def _messages(self, request: ProposalRequest) -> list[dict[str, Any]]:
        return [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": request.prompt()},
        ]

    def propose(self, request: ProposalRequest) -> Proposal:
        p = self.params
        messages = self._messages(request)
        key = cache_key(
            model=p.model,
            api_base=p.api_base,
            messages=messages,
            tools=None,
            tool_choice=None,
            params=p.params,
            repeat=0,
        )
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            self.cached_calls += 1
        entry: Mapping[str, Any] = cached if cached is not None else self._call(messages, key)
        content = str(entry["response"]["choices"][0]["message"].get("content") or "")
        prompt: JsonObject = {
            "proposer": f"litellm:{p.model}",
            "messages": list(messages),
            "cache_key": key,
        }
        return Proposal(parse_candidates(content)[: request.n], prompt, content)

    def _call(self, messages: list[dict[str, Any]], key: str) -> Mapping[str, Any]:
        p = self.params
        if p.max_cost_usd is not None and self.spend.cost_usd >= p.max_cost_usd:
            raise ProposerStopped(
                f"proposer spend cap reached (${self.spend.cost_usd:.4f} of ${p.max_cost_usd})"
            )
        request: dict[str, Any] = {"model": p.model, "messages": messages, **p.params}
        if p.api_base:
            request["api_base"] = p.api_base
        if p.api_key_env:
            request["api_key"] = os.environ.get(p.api_key_env)
        loop = runtime()
        endpoint = p.api_base or p.model.split("/", 1)[0]
        fetched = loop.run(
            call_model(request, loop.semaphore(endpoint, 1), self.policy, secrets(p.api_key_env))
        )
        if fetched.response is None or fetched.error:
            raise SkillbenchError(f"proposer model {p.model}: {fetched.error}")
        self.spend.add(fetched.usage, fetched.cost_usd)
        entry: dict[str, Any] = {
            "model": p.model,
            "created": time.time(),
            "response": fetched.response,
            "usage": fetched.usage,
            "cost_usd": fetched.cost_usd,
        }
        if self.cache is not None:
            self.cache.put(key, entry)
        return entry


@PROPOSERS.register("litellm")
def _litellm(options: JsonObject, env: SelectorEnv) -> Proposer:
    """``options``: the ``litellm`` selector's params (model, api_base, api_key_env,
    max_cost_usd, params, timeout, max_attempts, backoff_s, cache)."""
    return LitellmProposer(parse_params(options, env), env.cache_dir)
