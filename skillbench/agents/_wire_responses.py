"""The OpenAI Responses API (``/v1/responses``), streamed.

Tools may come in an ``additional_tools`` input item as well as in ``tools``, grouped in
namespaces, and be free-form (``custom``, one string of input); the bridge flattens them into
plain function tools for litellm and gives a free-form call back as one.
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
    array,
    content_texts,
    count,
    field,
    objects,
    sse,
)
from skillbench.agentspec import ApiShape
from skillbench.tokens import litellm_offline
from skillbench.types import JsonObject, JsonValue

TOOLS_ITEM = "additional_tools"


def _events(reply: Reply, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if reply.tool is None:
        item: dict[str, Any] = {
            "type": "message",
            "id": "msg_skillbench",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
        }
    elif reply.custom_input is not None:
        item = {
            "type": "custom_tool_call",
            "id": "ctc_skillbench",
            "call_id": "call_skillbench",
            "name": reply.tool,
            "input": reply.custom_input,
            "status": "completed",
        }
    else:
        item = {
            "type": "function_call",
            "id": "fc_skillbench",
            "call_id": "call_skillbench",
            "name": reply.tool,
            "arguments": reply.raw_arguments,
            "status": "completed",
        }
    response = {
        "id": "resp_skillbench",
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "model": model,
        "output": [item],
        "usage": {
            "input_tokens": reply.input_tokens,
            "output_tokens": reply.output_tokens,
            "total_tokens": reply.input_tokens + reply.output_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }
    started = {**response, "status": "in_progress", "output": []}
    yield "response.created", {"type": "response.created", "response": started}
    added = {"type": "response.output_item.added", "output_index": 0, "item": item}
    yield "response.output_item.added", added
    done = {"type": "response.output_item.done", "output_index": 0, "item": item}
    yield "response.output_item.done", done
    yield "response.completed", {"type": "response.completed", "response": response}


def _leaf_tools(body: JsonObject) -> Iterator[JsonObject]:
    """Every tool the request declares, in ``tools`` or an ``additional_tools`` input item,
    namespaces flattened."""

    def leaves(tools: JsonValue) -> Iterator[JsonObject]:
        for tool in objects(tools):
            yield from leaves(tool.get("tools")) if tool.get("type") == "namespace" else [tool]

    yield from leaves(body.get("tools"))
    for item in objects(body.get("input")):
        if item.get("type") == TOOLS_ITEM:
            yield from leaves(item.get("tools"))


def responses_tools(body: JsonObject) -> tuple[list[JsonObject], list[JsonValue]]:
    """The request's tools as plain function tools (namespaces flattened, free-form tools
    taking one ``input`` string), and its input items without the tool-carrying item."""
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
        if not (isinstance(item, dict) and item.get("type") == TOOLS_ITEM)
    ]
    return tools, items


def _unwrap(arguments: str) -> str:
    """The ``input`` string of a flattened free-form call (the text itself when not JSON)."""
    try:
        value = json.loads(arguments, strict=False)
    except json.JSONDecodeError:
        return arguments
    return str(value.get("input", "")) if isinstance(value, dict) else arguments


class OpenAIResponses:
    api: ApiShape = "openai-responses"

    def handles(self, path: str) -> bool:
        return "/responses" in path

    def answer(self, recorded: Recorded, reply: Reply) -> tuple[bytes, str]:
        model = str(recorded.body.get("model", "model"))
        return sse(list(_events(reply, model))), "text/event-stream"

    def texts(self, body: JsonObject) -> list[RequestText]:
        found = [RequestText("system", t) for t in content_texts(body.get("instructions"))]
        for item in objects(body.get("input")):
            role = str(item.get("role", "user"))
            parts = objects(item.get("content"))
            found += [
                RequestText(role, str(p["text"])) for p in parts if isinstance(p.get("text"), str)
            ]
        return found

    def tools(self, body: JsonObject) -> list[JsonObject]:
        tools = objects(body.get("tools"))
        for item in objects(body.get("input")):
            if item.get("type") == TOOLS_ITEM:
                tools += objects(item.get("tools"))
        return tools

    def forward(self, upstream: Upstream, recorded: Recorded, call: CallArgs) -> JsonObject:
        litellm = litellm_offline()

        body = recorded.body
        tools, items = responses_tools(body)
        response = litellm.responses(
            input=items,
            instructions=body.get("instructions"),
            tools=tools or None,
            max_output_tokens=upstream.max_tokens,
            use_chat_completions_api=upstream.wire == "chat",
            **call,
        )
        return dict(json.loads(cast(Any, response).model_dump_json()))

    def read(self, recorded: Recorded, answer: JsonObject) -> Reply:
        leaves = _leaf_tools(recorded.body)
        custom = {str(t.get("name")) for t in leaves if t.get("type") == "custom"}
        output = objects(answer.get("output"))
        for item in output:
            if item.get("type") in ("function_call", "custom_tool_call"):
                name = str(item.get("name"))
                arguments = str(item.get("arguments") or item.get("input") or "{}")
                if name in custom:
                    return Reply(tool=name, custom_input=_unwrap(arguments))
                return Reply(tool=name, raw_arguments=arguments)
        texts = [str(p.get("text", "")) for item in output for p in objects(item.get("content"))]
        return Reply(text="".join(texts) or DONE)

    def usage(self, answer: JsonObject) -> tuple[int, int]:
        usage = answer.get("usage")
        return count(field(usage, "input_tokens")), count(field(usage, "output_tokens"))


WIRES.register("openai-responses")(OpenAIResponses())
