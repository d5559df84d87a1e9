"""A request's conversation as plain blocks, whatever API the agent speaks.

Costing a session needs more than the texts a wire reads (``WireFormat.texts``): which text
is a tool call, which a tool's result, and which tool that result answers. Each API keeps
them its own way (Anthropic's ``tool_use``/``tool_result`` blocks, chat completions'
``tool_calls`` and ``tool`` messages); a reader per API shape turns them into ``Block``\\ s.
A result answers the latest call before it: the scripted model makes one call at a time and
gives every call the same id, so ids cannot tell them apart.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Literal, NamedTuple

from skillbench._errors import SkillbenchError
from skillbench._registry import Registry
from skillbench.agents._wire import content_texts, field, objects
from skillbench.agentspec import ApiShape
from skillbench.types import JsonObject, JsonValue

BlockKind = Literal["text", "call", "result"]


class Block(NamedTuple):
    """One piece of a request.

    Attributes:
        role: ``system``, ``user``, ``assistant`` or ``tool`` (a tool's result), or
            ``tools`` (a tool definition).
        kind: a ``text``, a tool ``call`` (its text is the call as JSON) or a ``result``.
        text: what the model reads of it.
        tool: the tool called, or whose call the result answers (None for a text).
    """

    role: str
    kind: BlockKind
    text: str
    tool: str | None = None


ConversationReader = Callable[[JsonObject], list[Block]]
CONVERSATIONS: Registry[ConversationReader] = Registry("conversation reader")
"""API shape → the reader of its requests' conversations."""


def conversation(api: ApiShape, body: JsonObject) -> list[Block]:
    """Every block of ``body`` in order: system, tool definitions, then the messages."""
    if api not in CONVERSATIONS:
        raise SkillbenchError(
            f"the {api} API's tool calls and results are not read yet (readers: "
            f"{', '.join(CONVERSATIONS.names())})"
        )
    return CONVERSATIONS.get(api)(body)


def tool_name(tool: JsonObject) -> str:
    """A tool definition's name (Anthropic's ``name``, chat completions' ``function.name``)."""
    return str(tool.get("name") or field(tool.get("function"), "name") or "")


def _call(name: JsonValue, arguments: JsonValue) -> Block:
    return Block("assistant", "call", json.dumps({"name": name, "input": arguments}), str(name))


def _definitions(body: JsonObject) -> Iterator[Block]:
    for tool in objects(body.get("tools")):
        yield Block("tools", "text", json.dumps(tool, ensure_ascii=False))


@CONVERSATIONS.register("anthropic-messages")
def anthropic_blocks(body: JsonObject) -> list[Block]:
    blocks = [Block("system", "text", t) for t in content_texts(body.get("system"))]
    blocks += _definitions(body)
    last: str | None = None
    for message in objects(body.get("messages")):
        role = str(message.get("role", "user"))
        content = message.get("content")
        parts: list[JsonObject] = (
            [{"type": "text", "text": content}] if isinstance(content, str) else objects(content)
        )
        for part in parts:
            kind = part.get("type")
            if kind == "tool_use":
                blocks.append(_call(part.get("name"), part.get("input")))
                last = str(part.get("name"))
            elif kind == "tool_result":
                text = "\n".join(content_texts(part.get("content")))
                blocks.append(Block("tool", "result", text, last))
            elif kind == "text":
                blocks.append(Block(role, "text", str(part.get("text", ""))))
    return blocks


@CONVERSATIONS.register("openai-chat")
def chat_blocks(body: JsonObject) -> list[Block]:
    blocks: list[Block] = []
    last: str | None = None
    for message in objects(body.get("messages")):
        role = str(message.get("role", "user"))
        texts = content_texts(message.get("content"))
        if role == "tool":
            blocks.append(Block("tool", "result", "\n".join(texts), last))
            continue
        blocks += [Block(role, "text", t) for t in texts]
        for call in objects(message.get("tool_calls")):
            function = call.get("function")
            arguments = field(function, "arguments")
            try:
                parsed: JsonValue = json.loads(str(arguments))
            except ValueError:
                parsed = arguments
            blocks.append(_call(field(function, "name"), parsed))
            last = str(field(function, "name"))
    system = [b for b in blocks if b.role == "system"]
    rest = [b for b in blocks if b.role != "system"]
    return [*system, *_definitions(body), *rest]
