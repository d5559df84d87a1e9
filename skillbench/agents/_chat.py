"""The OpenAI chat completions wire: what the recorder answers an agent that speaks it.

Qwen Code and opencode (through its OpenAI-compatible provider) post
``/v1/chat/completions``, streamed; the reply is the smallest valid one: one assistant text,
or one function call, then usage and ``[DONE]``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skillbench.agents._recorder import Reply

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


def chat_stream(reply: Reply, model: str) -> str:
    """The event stream of a streamed completion, ``[DONE]`` included."""
    lines = [f"data: {json.dumps(chunk)}\n\n" for chunk in chat_chunks(reply, model)]
    return "".join(lines) + "data: [DONE]\n\n"
