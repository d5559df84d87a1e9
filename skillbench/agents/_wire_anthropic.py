"""The Anthropic Messages API (``/v1/messages``), streamed or not."""

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
    as_json,
    content_texts,
    count,
    field,
    objects,
    sse,
)
from skillbench.agentspec import ApiShape
from skillbench.tokens import litellm_offline
from skillbench.types import JsonObject


def _events(reply: Reply, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
    usage = {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens}
    message: dict[str, Any] = {
        "id": "msg_skillbench",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    yield "message_start", {"type": "message_start", "message": message}
    if reply.tool is None:
        block: dict[str, Any] = {"type": "text", "text": ""}
        delta: dict[str, Any] = {"type": "text_delta", "text": reply.text}
        stop = "end_turn"
    else:
        block = {"type": "tool_use", "id": "toolu_skillbench", "name": reply.tool, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": reply.raw_arguments}
        stop = "tool_use"
    yield "content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}
    yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
    yield "content_block_stop", {"type": "content_block_stop", "index": 0}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": reply.output_tokens},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _message(reply: Reply, model: str) -> dict[str, Any]:
    """The non-streamed form, for the side requests an agent makes without ``stream``."""
    content: list[dict[str, Any]] = (
        [{"type": "text", "text": reply.text}]
        if reply.tool is None
        else [
            {
                "type": "tool_use",
                "id": "toolu_skillbench",
                "name": reply.tool,
                "input": json.loads(reply.raw_arguments, strict=False),
            }
        ]
    )
    return {
        "id": "msg_skillbench",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "end_turn" if reply.tool is None else "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
    }


class AnthropicMessages:
    api: ApiShape = "anthropic-messages"

    def handles(self, path: str) -> bool:
        return "/messages" in path

    def answer(self, recorded: Recorded, reply: Reply) -> tuple[bytes, str]:
        model = str(recorded.body.get("model", "model"))
        if not recorded.body.get("stream"):
            return json.dumps(_message(reply, model)).encode(), "application/json"
        return sse(list(_events(reply, model))), "text/event-stream"

    def texts(self, body: JsonObject) -> list[RequestText]:
        found = [RequestText("system", t) for t in content_texts(body.get("system"))]
        for message in objects(body.get("messages")):
            role = str(message.get("role", "user"))
            found += [RequestText(role, t) for t in content_texts(message.get("content"))]
        return found

    def tools(self, body: JsonObject) -> list[JsonObject]:
        return objects(body.get("tools"))

    def forward(self, upstream: Upstream, recorded: Recorded, call: CallArgs) -> JsonObject:
        litellm = litellm_offline()

        body = recorded.body
        litellm.use_chat_completions_url_for_anthropic_messages = upstream.wire == "chat"
        create = cast(Any, litellm.anthropic.messages.create)
        return as_json(
            create(
                messages=body.get("messages") or [],
                system=body.get("system"),
                tools=body.get("tools"),
                max_tokens=upstream.max_tokens,
                **call,
            )
        )

    def read(self, recorded: Recorded, answer: JsonObject) -> Reply:
        blocks = objects(answer.get("content"))
        for block in blocks:
            if block.get("type") == "tool_use":
                arguments = json.dumps(block.get("input") or {})
                return Reply(tool=str(block.get("name")), raw_arguments=arguments)
        texts = [str(b.get("text", "")) for b in blocks if b.get("type") == "text"]
        return Reply(text="".join(texts) or DONE)

    def usage(self, answer: JsonObject) -> tuple[int, int]:
        usage = answer.get("usage")
        return count(field(usage, "input_tokens")), count(field(usage, "output_tokens"))


WIRES.register("anthropic-messages")(AnthropicMessages())
