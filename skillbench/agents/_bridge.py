"""A loopback bridge between a shipped agent and a real model, through litellm.

The agent believes it talks to its vendor's API; the bridge forwards the turn that carries
the listing to the configured model in the request's wire format (``WIRES``: litellm
translates each API, by default over chat completions so Ollama, vLLM and llama.cpp servers
work) and hands the answer back. Every later request of the turn (a tool result coming back) is
answered locally with a closing text: the first model turn decides, and no further call is
paid for.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from skillbench.agents._wire import (
    DONE,
    CallArgs,
    Recorded,
    Reply,
    Upstream,
    WireFormat,
    wire_of,
)
from skillbench.cache import ResponseCache, canonical_json
from skillbench.tokens import litellm_offline
from skillbench.types import JsonObject

_DROP = frozenset({"metadata", "prompt_cache_key", "client_metadata", "stream", "store"})
"""Request fields that name a session or a transport, not what the model is asked."""


@dataclass(frozen=True)
class BridgeCall:
    """One forwarded model call: the answer, its tokens and cost, and whether it was cached;
    ``cpu_ms`` is the processor time the bridge spent on it (litellm's translation and
    bookkeeping, the answer read): what a decision costs beyond the agent's own pace."""

    reply: Reply
    answer: JsonObject
    input_tokens: int
    output_tokens: int
    cost_usd: float
    latency_ms: float
    cached: bool
    cpu_ms: float = 0.0


def _placeholders(body: JsonObject, roots: Mapping[str, str]) -> JsonObject:
    text = json.dumps({k: v for k, v in body.items() if k not in _DROP}, sort_keys=True)
    for path, name in roots.items():
        text = text.replace(path, name)
    return dict(json.loads(text))


@dataclass
class Bridge:
    """A ``Responder`` that forwards the first listing-carrying request to ``upstream``.

    Args:
        upstream: the model.
        carries_listing: tells the turn's main request from side requests.
        cache: answers keyed on the forwarded request with the workspace's paths replaced
            by placeholders (``roots``), so the same prompt in another folder hits.
        repeat: the decision's repeat, part of the cache key: each repeat samples the model
            again instead of replaying the first repeat's answer.
    """

    upstream: Upstream
    carries_listing: Callable[[JsonObject], bool]
    cache: ResponseCache | None = None
    roots: Mapping[str, str] = field(default_factory=dict)
    repeat: int = 0
    calls: list[BridgeCall] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, recorded: Recorded) -> Reply:
        with self._lock:
            first = not self.calls and not self.errors and self.carries_listing(recorded.body)
        if not first:
            return Reply(text=DONE)
        try:
            call = self._forward(recorded)
        except Exception as exc:  # the agent gets an error text; the selector reports it
            self.errors.append(f"{type(exc).__name__}: {exc}")
            return Reply(text=DONE)
        self.calls.append(call)
        return call.reply

    def _key(self, recorded: Recorded) -> str:
        from skillbench.cache import cache_key

        u = self.upstream
        return cache_key(
            model=u.model,
            api_base=u.api_base,
            messages=[{"path": recorded.path, "body": _placeholders(recorded.body, self.roots)}],
            tools=None,
            tool_choice=None,
            params={"wire": u.wire, "max_tokens": u.max_tokens, "temperature": u.temperature},
            repeat=self.repeat,
        )

    def _forward(self, recorded: Recorded) -> BridgeCall:
        cpu = time.thread_time()
        call = self._answer(recorded)
        return replace(call, cpu_ms=(time.thread_time() - cpu) * 1000)

    def _answer(self, recorded: Recorded) -> BridgeCall:
        key = self._key(recorded) if self.cache is not None else None
        hit = self.cache.get(key) if self.cache is not None and key is not None else None
        cached = hit.get("answer") if hit is not None else None
        if isinstance(cached, dict):
            reply, tokens = _read(recorded, cached)
            return BridgeCall(reply, cached, *tokens, 0.0, 0.0, True)
        start = time.perf_counter()
        answer, cost = _call(self.upstream, recorded)
        latency = (time.perf_counter() - start) * 1000
        reply, tokens = _read(recorded, answer)
        if self.cache is not None and key is not None:
            self.cache.put(key, {"answer": answer, "cost_usd": cost})
        return BridgeCall(reply, answer, *tokens, cost, latency, False)


def _wire(recorded: Recorded) -> WireFormat:
    wire = wire_of(recorded.path)
    if wire is None:
        raise ValueError(f"no model API at {recorded.path}")
    return wire


def _call(upstream: Upstream, recorded: Recorded) -> tuple[JsonObject, float]:
    call = CallArgs(
        model=upstream.model,
        api_base=upstream.api_base,
        api_key=upstream.api_key,
        timeout=upstream.timeout,
    )
    if upstream.temperature is not None:
        call["temperature"] = upstream.temperature
    wire = _wire(recorded)
    answer = json.loads(canonical_json(wire.forward(upstream, recorded, call)))
    return answer, _cost(upstream.model, wire.usage(answer))


def _cost(model: str, tokens: tuple[int, int]) -> float:
    litellm = litellm_offline()
    try:
        prompt, completion = litellm.cost_per_token(
            model=model, prompt_tokens=tokens[0], completion_tokens=tokens[1]
        )
    except Exception:  # a model without a price costs what litellm cannot say: 0
        return 0.0
    return float(prompt + completion)


def _read(recorded: Recorded, answer: JsonObject) -> tuple[Reply, tuple[int, int]]:
    """The first tool call of the answer (or its text) as a ``Reply``, and its tokens."""
    wire = _wire(recorded)
    return wire.read(recorded, answer), wire.usage(answer)
