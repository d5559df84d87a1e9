"""The Gemini API's ``generateContent`` (``/v1beta/models/MODEL:…``), streamed or not.

A turn posts ``:streamGenerateContent?alt=sse`` (side requests plain ``:generateContent`` or
``:countTokens``); a streamed answer is one ``data:`` event holding a whole
``GenerateContentResponse``. The bridge forwards through litellm's own interface for this
API: the provider's API for its models, its adapter to chat completions for any other.
"""

from __future__ import annotations

import json
import re
from typing import Any

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
)
from skillbench.agentspec import ApiShape
from skillbench.types import JsonObject

_MODEL = re.compile(r"/models/([^/:?]+):")


def _response(reply: Reply, model: str) -> dict[str, Any]:
    """A ``GenerateContentResponse`` with one candidate: the text or one function call."""
    if reply.tool is None:
        part: dict[str, Any] = {"text": reply.text}
    else:
        args = json.loads(reply.raw_arguments or "{}", strict=False)
        part = {"functionCall": {"name": reply.tool, "args": args}}
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": reply.input_tokens,
            "candidatesTokenCount": reply.output_tokens,
            "totalTokenCount": reply.input_tokens + reply.output_tokens,
        },
        "modelVersion": model,
    }


class GenerateContent:
    api: ApiShape = "generate-content"

    def handles(self, path: str) -> bool:
        return _MODEL.search(path) is not None

    def answer(self, recorded: Recorded, reply: Reply) -> tuple[bytes, str]:
        path = recorded.path
        found = _MODEL.search(path)
        model = found.group(1) if found else "model"
        if ":countTokens" in path:
            return json.dumps({"totalTokens": reply.input_tokens}).encode(), "application/json"
        response = json.dumps(_response(reply, model))
        if "alt=sse" in path:
            return f"data: {response}\r\n\r\n".encode(), "text/event-stream"
        return response.encode(), "application/json"

    def texts(self, body: JsonObject) -> list[RequestText]:
        instruction = body.get("systemInstruction")
        parts = instruction.get("parts") if isinstance(instruction, dict) else None
        found = [RequestText("system", t) for t in content_texts(parts)]
        for content in objects(body.get("contents")):
            role = str(content.get("role", "user"))
            found += [RequestText(role, t) for t in content_texts(content.get("parts"))]
        return found

    def tools(self, body: JsonObject) -> list[JsonObject]:
        return [
            declaration
            for tool in objects(body.get("tools"))
            for declaration in objects(tool.get("functionDeclarations"))
        ]

    def forward(self, upstream: Upstream, recorded: Recorded, call: CallArgs) -> JsonObject:
        from litellm.google_genai import generate_content

        body = recorded.body
        config: dict[str, Any] = {"maxOutputTokens": upstream.max_tokens}
        if "temperature" in call:
            config["temperature"] = call["temperature"]
        response = generate_content(
            contents=body.get("contents") or [],
            config=config,
            tools=body.get("tools"),
            systemInstruction=body.get("systemInstruction"),
            **{k: v for k, v in call.items() if k != "temperature"},
        )
        return as_json(response, exclude_none=True)

    def read(self, recorded: Recorded, answer: JsonObject) -> Reply:
        texts = []
        for candidate in objects(answer.get("candidates"))[:1]:
            for part in objects(field(candidate.get("content"), "parts")):
                found = part.get("functionCall") or part.get("function_call")
                if found:
                    arguments = json.dumps(field(found, "args") or {})
                    return Reply(tool=str(field(found, "name")), raw_arguments=arguments)
                if isinstance(part.get("text"), str) and not part.get("thought"):
                    texts.append(str(part["text"]))
        return Reply(text="".join(texts) or DONE)

    def usage(self, answer: JsonObject) -> tuple[int, int]:
        meta = answer.get("usageMetadata") or answer.get("usage_metadata")
        return count(field(meta, "promptTokenCount")), count(field(meta, "candidatesTokenCount"))


WIRES.register("generate-content")(GenerateContent())
