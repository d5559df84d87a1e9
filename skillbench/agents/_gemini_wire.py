"""The Gemini API's ``generateContent`` wire, as the loopback recorder answers it.

Gemini CLI posts ``/v1beta/models/MODEL:streamGenerateContent?alt=sse`` for a turn (and
plain ``:generateContent`` or ``:countTokens`` for side requests); a streamed answer is one
``data:`` event holding a whole ``GenerateContentResponse``.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skillbench.agents._recorder import Reply

_MODEL = re.compile(r"/models/([^/:?]+):")


def is_gemini(path: str) -> bool:
    """Whether ``path`` is a Gemini API model call."""
    return _MODEL.search(path) is not None


def gemini_model(path: str) -> str:
    """The model a Gemini API path names."""
    found = _MODEL.search(path)
    return found.group(1) if found else "model"


def gemini_response(reply: Reply, model: str) -> dict[str, Any]:
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


def gemini_reply(path: str, reply: Reply) -> tuple[bytes, str]:
    """The body and content type answering ``path``: an event stream for ``alt=sse``, a
    token count for ``:countTokens``, else one JSON response."""
    model = gemini_model(path)
    if ":countTokens" in path:
        return json.dumps({"totalTokens": reply.input_tokens}).encode(), "application/json"
    response = json.dumps(gemini_response(reply, model))
    if "alt=sse" in path:
        return f"data: {response}\r\n\r\n".encode(), "text/event-stream"
    return response.encode(), "application/json"
