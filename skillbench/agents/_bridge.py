"""A loopback bridge between a shipped agent and a real model, through litellm.

The agent believes it talks to its vendor's API; the bridge forwards the turn that carries
the listing to the configured model (Anthropic Messages or OpenAI Responses translated by
litellm, by default over chat completions so Ollama, vLLM and llama.cpp servers work; an
agent that speaks chat completions itself goes through as it is) and
hands the answer back. Every later request of the turn (a tool result coming back) is
answered locally with a closing text: the first model turn decides, and no further call is
paid for.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from skillbench.agents import _chat as chat
from skillbench.agents._gemini_wire import is_gemini
from skillbench.agents._recorder import Recorded, Reply, array, objects
from skillbench.cache import ResponseCache, canonical_json
from skillbench.types import JsonObject, JsonValue

Wire = Literal["chat", "native"]
"""``chat``: translate to chat completions (any OpenAI-compatible server); ``native``: the
provider's own Messages or Responses API."""

DONE = "done"
_DROP = frozenset({"metadata", "prompt_cache_key", "client_metadata", "stream", "store"})
"""Request fields that name a session or a transport, not what the model is asked."""


@dataclass(frozen=True)
class Upstream:
    """Where the bridge sends model calls."""

    model: str
    api_base: str | None = None
    api_key: str | None = None
    wire: Wire = "chat"
    timeout: float = 120.0
    max_tokens: int = 1024
    temperature: float | None = 0.0


@dataclass(frozen=True)
class BridgeCall:
    """One forwarded model call: the answer, its tokens and cost, and whether it was cached."""

    reply: Reply
    answer: JsonObject
    input_tokens: int
    output_tokens: int
    cost_usd: float
    latency_ms: float
    cached: bool


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
        key = self._key(recorded)
        hit = self.cache.get(key) if self.cache is not None else None
        cached = hit.get("answer") if hit is not None else None
        if isinstance(cached, dict):
            reply, tokens = _read(recorded, cached)
            return BridgeCall(reply, cached, *tokens, 0.0, 0.0, True)
        start = time.perf_counter()
        answer, cost = _call(self.upstream, recorded)
        latency = (time.perf_counter() - start) * 1000
        reply, tokens = _read(recorded, answer)
        if self.cache is not None:
            self.cache.put(key, {"answer": answer, "cost_usd": cost})
        return BridgeCall(reply, answer, *tokens, cost, latency, False)


def _call(upstream: Upstream, recorded: Recorded) -> tuple[JsonObject, float]:
    import litellm

    litellm.disable_hf_tokenizer_download = True
    body = recorded.body
    common: dict[str, Any] = {
        "model": upstream.model,
        "api_base": upstream.api_base,
        "api_key": upstream.api_key,
        "timeout": upstream.timeout,
    }
    if upstream.temperature is not None:
        common["temperature"] = upstream.temperature
    if is_gemini(recorded.path):
        answer = _generate_content(upstream, body, common)
    elif chat.PATH in recorded.path:
        response = litellm.completion(
            messages=body.get("messages") or [],
            tools=body.get("tools") or None,
            max_tokens=upstream.max_tokens,
            **common,
        )
        answer = json.loads(cast(Any, response).model_dump_json())
    elif "/responses" in recorded.path:
        tools, items = responses_tools(body)
        response = litellm.responses(
            input=items,
            instructions=body.get("instructions"),
            tools=tools or None,
            max_output_tokens=upstream.max_tokens,
            use_chat_completions_api=upstream.wire == "chat",
            **common,
        )
        answer = json.loads(cast(Any, response).model_dump_json())
    else:
        litellm.use_chat_completions_url_for_anthropic_messages = upstream.wire == "chat"
        answer = dict(
            cast(Any, litellm.anthropic.messages.create)(
                messages=body.get("messages") or [],
                system=body.get("system"),
                tools=body.get("tools"),
                max_tokens=upstream.max_tokens,
                **common,
            )
        )
    answer = json.loads(canonical_json(answer))
    return answer, _cost(upstream.model, answer)


def _generate_content(
    upstream: Upstream, body: JsonObject, common: Mapping[str, Any]
) -> JsonObject:
    """A Gemini ``generateContent`` request through litellm's own interface for it: the
    provider's API for Gemini models, its adapter to chat completions for any other."""
    from litellm.google_genai import generate_content

    config: dict[str, Any] = {"maxOutputTokens": upstream.max_tokens}
    if "temperature" in common:
        config["temperature"] = common["temperature"]
    response = generate_content(
        contents=body.get("contents") or [],
        config=config,
        tools=body.get("tools"),
        systemInstruction=body.get("systemInstruction"),
        **{k: v for k, v in common.items() if k != "temperature"},
    )
    dumped = response.model_dump(exclude_none=True) if hasattr(response, "model_dump") else response
    return dict(json.loads(json.dumps(dumped, default=str)))


def _usage(answer: Mapping[str, Any]) -> tuple[int, int]:
    """Input and output tokens of an answer (Messages, Responses, chat or Gemini)."""
    usage = answer.get("usage") or {}
    gemini = answer.get("usageMetadata") or answer.get("usage_metadata") or {}
    prompt = usage.get("input_tokens") or usage.get("prompt_tokens")
    completion = usage.get("output_tokens") or usage.get("completion_tokens")
    return (
        int(prompt or gemini.get("promptTokenCount") or 0),
        int(completion or gemini.get("candidatesTokenCount") or 0),
    )


def _cost(model: str, answer: Mapping[str, Any]) -> float:
    import litellm

    prompt_tokens, completion_tokens = _usage(answer)
    try:
        prompt, completion = litellm.cost_per_token(
            model=model,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
        )
    except Exception:  # a model without a price costs what litellm cannot say: 0
        return 0.0
    return float(prompt + completion)


def _leaf_tools(body: JsonObject) -> Iterator[JsonObject]:
    """Every tool a Responses request declares, in its ``tools`` or in an
    ``additional_tools`` input item (Codex), namespaces flattened."""

    def leaves(tools: JsonValue) -> Iterator[JsonObject]:
        for tool in objects(tools):
            yield from leaves(tool.get("tools")) if tool.get("type") == "namespace" else [tool]

    yield from leaves(body.get("tools"))
    for item in objects(body.get("input")):
        if item.get("type") == "additional_tools":
            yield from leaves(item.get("tools"))


def responses_tools(body: JsonObject) -> tuple[list[JsonObject], list[JsonValue]]:
    """Codex's tools as plain function tools (namespaces flattened, free-form tools taking
    one ``input`` string), and its input items without the tool-carrying item."""
    schema: JsonObject = {
        "type": "object",
        "properties": {"input": {"type": "string"}},
        "required": ["input"],
    }
    tools: list[JsonObject] = [
        dict(tool)
        if tool.get("type") == "function"
        else {
            "type": "function",
            "name": tool.get("name"),
            "description": tool.get("description", ""),
            "parameters": {**schema},
        }
        for tool in _leaf_tools(body)
        if tool.get("type") in ("function", "custom")
    ]
    items = [
        item
        for item in array(body.get("input"))
        if not (isinstance(item, dict) and item.get("type") == "additional_tools")
    ]
    return tools, items


def _unwrap(arguments: str) -> str:
    """The ``input`` string of a flattened free-form call (the text itself when not JSON)."""
    try:
        value = json.loads(arguments, strict=False)
    except json.JSONDecodeError:
        return arguments
    return str(value.get("input", "")) if isinstance(value, dict) else arguments


def _custom_tools(body: JsonObject) -> set[str]:
    return {str(t.get("name")) for t in _leaf_tools(body) if t.get("type") == "custom"}


def _read(recorded: Recorded, answer: Mapping[str, Any]) -> tuple[Reply, tuple[int, int]]:
    """The first tool call of the answer (or its text) as a ``Reply``, and its tokens.

    A call of a tool the agent declared free-form goes back as such, its ``input`` unwrapped.
    """
    tokens = _usage(answer)
    if is_gemini(recorded.path):
        return _gemini_read(answer), tokens
    if chat.PATH in recorded.path:
        choices: list[Any] = answer.get("choices") or [{}]
        message: Mapping[str, Any] = choices[0].get("message") or {}
        for call in message.get("tool_calls") or ():
            function = call.get("function") or {}
            name = str(function.get("name"))
            return Reply(tool=name, raw_arguments=str(function.get("arguments") or "{}")), tokens
        return Reply(text=str(message.get("content") or "") or DONE), tokens
    if "/responses" in recorded.path:
        custom = _custom_tools(recorded.body)
        for item in answer.get("output") or ():
            if item.get("type") in ("function_call", "custom_tool_call"):
                name = str(item.get("name"))
                arguments = str(item.get("arguments") or item.get("input") or "{}")
                if name in custom:
                    return Reply(tool=name, custom_input=_unwrap(arguments)), tokens
                return Reply(tool=name, raw_arguments=arguments), tokens
        texts = [
            part.get("text", "")
            for item in answer.get("output") or ()
            for part in item.get("content") or ()
            if isinstance(part, dict)
        ]
        return Reply(text="".join(texts) or DONE), tokens
    for block in answer.get("content") or ():
        if block.get("type") == "tool_use":
            raw = json.dumps(block.get("input") or {})
            return Reply(tool=block.get("name"), raw_arguments=raw), tokens
    texts = [b.get("text", "") for b in answer.get("content") or () if b.get("type") == "text"]
    return Reply(text="".join(texts) or DONE), tokens


def _gemini_read(answer: Mapping[str, Any]) -> Reply:
    """The first function call of a ``GenerateContentResponse``, else its text."""
    texts = []
    for candidate in (answer.get("candidates") or [])[:1]:
        for part in (candidate.get("content") or {}).get("parts") or ():
            call = part.get("functionCall") or part.get("function_call")
            if call:
                return Reply(
                    tool=str(call.get("name")), raw_arguments=json.dumps(call.get("args") or {})
                )
            if isinstance(part.get("text"), str) and not part.get("thought"):
                texts.append(part["text"])
    return Reply(text="".join(texts) or DONE)
