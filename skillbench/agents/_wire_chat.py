"""The OpenAI chat completions API (``/v1/chat/completions``), streamed or not.

The recorder's reply is the smallest valid one: one assistant text, or one function call,
then usage and ``[DONE]``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, cast

from skillbench.agents._wire import (
    DONE,
    WIRES,
    CallArgs,
    Recorded,
    Reply,
    RequestText,
    Upstream,
    content_texts,
    count,
    field,
    objects,
    sse,
)
from skillbench.agentspec import ApiShape
from skillbench.tokens import litellm_offline
from skillbench.types import JsonObject

PATH = "/chat/completions"
CALL_ID = "call_skillbench"


def _usage(reply: Reply) -> dict[str, int]:
    return {
        "prompt_tokens": reply.input_tokens,
        "completion_tokens": reply.output_tokens,
        "total_tokens": reply.input_tokens + reply.output_tokens,
    }


def _call(reply: Reply) -> dict[str, Any]:
    return {
        "id": CALL_ID,
        "type": "function",
        "function": {"name": reply.tool, "arguments": reply.raw_arguments},
    }


def _finish(reply: Reply) -> str:
    return "stop" if reply.tool is None else "tool_calls"


def chat_message(reply: Reply, model: str) -> dict[str, Any]:
    """The non-streamed completion."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.tool is not None:
        message = {"role": "assistant", "content": None, "tool_calls": [_call(reply)]}
    return {
        "id": "chatcmpl-skillbench",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish(reply)}],
        "usage": _usage(reply),
    }


def chat_chunks(reply: Reply, model: str) -> Iterator[dict[str, Any]]:
    """The streamed completion, chunk by chunk (the ``data: [DONE]`` line is the caller's)."""
    head = {"id": "chatcmpl-skillbench", "object": "chat.completion.chunk", "created": 0}
    head["model"] = model
    if reply.tool is None:
        delta: dict[str, Any] = {"role": "assistant", "content": reply.text}
    else:
        delta = {"role": "assistant", "tool_calls": [{"index": 0, **_call(reply)}]}
    yield {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    yield {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": _finish(reply)}]}
    yield {**head, "choices": [], "usage": _usage(reply)}


class OpenAIChat:
    api: ApiShape = "openai-chat"

    def handles(self, path: str) -> bool:
        return PATH in path

    def answer(self, recorded: Recorded, reply: Reply) -> tuple[bytes, str]:
        model = str(recorded.body.get("model", "model"))
        if not recorded.body.get("stream"):
            return json.dumps(chat_message(reply, model)).encode(), "application/json"
        events: list[tuple[str | None, Any]] = [(None, c) for c in chat_chunks(reply, model)]
        return sse([*events, (None, "[DONE]")]), "text/event-stream"

    def texts(self, body: JsonObject) -> list[RequestText]:
        found = []
        for message in objects(body.get("messages")):
            role = str(message.get("role", "user"))
            found += [RequestText(role, t) for t in content_texts(message.get("content"))]
        return found

    def tools(self, body: JsonObject) -> list[JsonObject]:
        return objects(body.get("tools"))

    def forward(self, upstream: Upstream, recorded: Recorded, call: CallArgs) -> JsonObject:
        litellm = litellm_offline()

        body = recorded.body
        response = litellm.completion(
            messages=body.get("messages") or [],
            tools=body.get("tools") or None,
            max_tokens=upstream.max_tokens,
            **call,
        )
        return dict(json.loads(cast(Any, response).model_dump_json()))

    def read(self, recorded: Recorded, answer: JsonObject) -> Reply:
        choices = objects(answer.get("choices"))
        message = field(choices[0], "message") if choices else None
        for tool_call in objects(field(message, "tool_calls")):
            function = field(tool_call, "function")
            arguments = str(field(function, "arguments") or "{}")
            return Reply(tool=str(field(function, "name")), raw_arguments=arguments)
        return Reply(text=str(field(message, "content") or "") or DONE)

    def usage(self, answer: JsonObject) -> tuple[int, int]:
        usage = answer.get("usage")
        return count(field(usage, "prompt_tokens")), count(field(usage, "completion_tokens"))


WIRES.register("openai-chat")(OpenAIChat())
