"""A loopback model endpoint that records what an agent sends and answers like a model would.

The agents speak their vendors' wire formats: Claude Code the Anthropic Messages API
(streamed), Codex and Copilot CLI the OpenAI Responses API or Anthropic Messages, Qwen Code and
opencode OpenAI chat completions (streamed, see ``_chat``), Gemini CLI the Gemini API's
``streamGenerateContent`` (``_gemini_wire``). The recorder answers each with the smallest
valid reply (one text block, or one tool call when a responder says so), so the agent ends its turn
cleanly and never reaches the network.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal, NamedTuple

from skillbench.agents import _chat as chat
from skillbench.agents._gemini_wire import gemini_reply, is_gemini
from skillbench.types import JsonObject, JsonValue

Wire = Literal["anthropic", "responses", "chat"]


class Recorded(NamedTuple):
    """One request as received: the path (with query) and the decoded JSON body."""

    path: str
    body: JsonObject


def array(value: JsonValue) -> list[JsonValue]:
    """``value`` when it is a JSON array, else empty: a field a vendor left out, or null."""
    return value if isinstance(value, list) else []


def objects(value: JsonValue) -> list[JsonObject]:
    """The JSON objects of an array field (nothing for a missing field; non-objects skipped)."""
    return [item for item in array(value) if isinstance(item, dict)]


@dataclass(frozen=True)
class Reply:
    """What the model answers: text, or a call of ``tool``.

    A function call carries ``raw_arguments`` (JSON text, passed on verbatim); a call of a
    free-form tool (Codex's ``custom`` tools) carries ``custom_input`` instead.
    """

    text: str = "ok"
    tool: str | None = None
    raw_arguments: str = "{}"
    custom_input: str | None = None
    input_tokens: int = 1
    output_tokens: int = 1


JSON = "application/json"

Responder = Callable[[Recorded], Reply]
"""Decides the reply to one recorded request (the default always answers "ok")."""


def _anthropic_events(reply: Reply, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
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


def _responses_events(reply: Reply, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
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
    yield (
        "response.output_item.added",
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": item,
        },
    )
    yield (
        "response.output_item.done",
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": item,
        },
    )
    yield "response.completed", {"type": "response.completed", "response": response}


def _anthropic_message(reply: Reply, model: str) -> dict[str, Any]:
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


class Recorder:
    """A model endpoint on ``127.0.0.1`` (a free port) that records every request.

    Use as a context manager; ``requests`` holds what arrived, in order.
    """

    def __init__(self, responder: Responder | None = None) -> None:
        self.requests: list[Recorded] = []
        self._responder = responder or (lambda _: Reply())
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        port = self._server.server_address[1]
        return f"http://127.0.0.1:{port}"

    def __enter__(self) -> Recorder:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _record(self, path: str, raw: bytes) -> Recorded | None:
        try:
            body = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None
        if not isinstance(body, dict):
            return None
        recorded = Recorded(path, body)
        with self._lock:
            self.requests.append(recorded)
        return recorded

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def _send(self, status: int, body: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self._send(404, b'{"error": "not found"}', "application/json")

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                recorded = recorder._record(self.path, raw)
                if recorded is None:
                    self._send(400, b'{"error": "body is not a JSON object"}', "application/json")
                    return
                reply = recorder._responder(recorded)
                if is_gemini(self.path):
                    self._send(200, *gemini_reply(self.path, reply))
                    return
                model = str(recorded.body.get("model", "model"))
                wire: Wire = "responses" if "/responses" in self.path else "anthropic"
                if chat.PATH in self.path:
                    stream, kind = chat.chat_stream(reply, model), "text/event-stream"
                    if not recorded.body.get("stream"):
                        stream, kind = json.dumps(chat.chat_message(reply, model)), JSON
                    self._send(200, stream.encode(), kind)
                    return
                if wire == "anthropic" and not recorded.body.get("stream"):
                    body = json.dumps(_anthropic_message(reply, model)).encode()
                    self._send(200, body, "application/json")
                    return
                events = (_anthropic_events if wire == "anthropic" else _responses_events)(
                    reply, model
                )
                stream = "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events)
                self._send(200, stream.encode(), "text/event-stream")

        return Handler
