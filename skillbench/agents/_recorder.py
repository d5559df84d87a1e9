"""A loopback model endpoint that records what an agent sends and answers like a model would.

The agents speak their vendors' APIs; the recorder answers each request in the wire format
its path belongs to (``WIRES``) with the smallest valid reply (one text block, or one tool
call when a responder says so), so the agent ends its turn cleanly and never reaches the
network.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from skillbench.agents._wire import Recorded, Reply, wire_of

JSON = "application/json"

Responder = Callable[[Recorded], Reply]
"""Decides the reply to one recorded request (the default always answers "ok")."""


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
            # An answer goes out in two writes (head, body); with Nagle's algorithm on, the
            # body of an answer on a kept-alive connection waits for the client's delayed
            # ACK of the head (~40 ms on Linux), a wait every model server avoids.
            disable_nagle_algorithm = True

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
                wire = wire_of(self.path)
                if wire is None:
                    self._send(404, b'{"error": "no model API at this path"}', JSON)
                    return
                self._send(200, *wire.answer(recorded, recorder._responder(recorded)))

        return Handler
