"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for tests and benchmarks.

It answers ``POST /v1/chat/completions`` by a scripted policy: pick the listed skill whose
name appears in the user text, else the one whose name and description best overlap it, else
answer in text. Faults are triggered by markers in the user text (or by ``script``):

``[[429:N]]`` the first N attempts of this prompt get 429 with ``Retry-After``;
``[[500:N]]`` the first N attempts get 500; ``[[slow:N]]`` the first N attempts sleep
``slow_s`` (past the client's timeout); ``[[always500]]`` every attempt fails;
``[[badjson]]`` the Skill call's arguments are invalid JSON; ``[[noskill]]`` the arguments
lack ``skill``; ``[[unknown]]`` the call names an unlisted skill; ``[[multi]]`` the turn
holds a ``read_file`` call, then the Skill call, then a second Skill call; ``[[text]]``
text only; ``[[echokey]]`` the reply text repeats the bearer token (a leaking server);
``[[401]]``, ``[[403]]``, ``[[404]]``, ``[[400]]`` answer that status with a provider-style error;
``[[nochoices]]`` a completion with an empty ``choices`` list; ``[[nofunction]]`` a tool
call without a ``function``; ``[[noname]]`` a function without a ``name``; ``[[nullmessage]]``
a choice whose ``message`` is null; ``[[newlines]]`` Skill arguments with raw newlines inside
a JSON string; ``[[case]]`` the chosen name capitalised; ``[[context]]`` and
``[[llamactx]]`` a 400 for a prompt too long for the context (OpenAI's and llama.cpp's words);
``[[hang]]`` no answer for ``hang_s`` seconds (a server generating until its context is full).
``context_tokens`` answers that 400 (llama.cpp's words) to any longer prompt.
A request with ``stream: true`` gets its answer as server-sent events; with ``[[drip]]`` an
empty chunk comes every ``drip_s`` seconds for ``hang_s`` seconds first (a stream that does
not end). While it waits, the server watches the connection: a client
that hangs up is counted in ``disconnects`` and the answer is abandoned.
``api_keys`` (a 401 for any other bearer token) and ``models`` (a 404 for any other model)
act like a real provider's account.
A request without tools is a sub-agent (``execute_fork``): it gets a text of
:func:`fork_words` words, and that many completion tokens in ``usage``.
Run it as a script (``python tests/support/fake_openai.py --latency 0.05``) to serve from a
separate process: the benchmark does, so the server does not compete for the client's GIL.

The codex layout (a ``read_file`` tool, no ``Skill`` tool) triggers by reading the chosen
skill's ``(file: …)`` path. ``requests`` counts HTTP requests; ``bodies`` keeps them;
``times`` when each came (epoch seconds); ``usages`` keeps the ``usage`` of every answer
sent, ``answered`` each with its request body. Prompt tokens are counted as OpenAI bills
them (the gpt-4o tokenizer over messages and tool schemas, through litellm).
:func:`refused_url` gives an address where nothing listens.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import select
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Policy = Callable[[Mapping[str, Any]], "list[tuple[str, str]] | str"]
"""Maps a request body to tool calls ``[(tool name, arguments JSON text)]`` or reply text."""

_ENTRY = re.compile(r"^- (?:\*\*)?([^\s:*\[]+)(?:\*\*)?(?: \[[^\]]*\])?:(.*)$")
_FILE = re.compile(r"\(file: ([^)]+)\)\s*$")
_MARK = re.compile(r"\[\[(\w+)(?::(\d+))?\]\]")
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>", re.S)
_WORD = re.compile(r"[a-z0-9]+")


def listed_skills(body: Mapping[str, Any]) -> dict[str, tuple[str, str | None]]:
    """Listed skills found in the system and user messages: name → (description, file)."""
    out: dict[str, tuple[str, str | None]] = {}
    for message in body.get("messages", []):
        for line in str(message.get("content") or "").splitlines():
            m = _ENTRY.match(line.strip())
            if m:
                rest = m.group(2).strip()
                path = _FILE.search(rest)
                out.setdefault(m.group(1), (rest, path.group(1) if path else None))
    return out


def user_text(body: Mapping[str, Any]) -> str:
    """The last user message without its ``<system-reminder>`` blocks."""
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    return _REMINDER.sub("", str(users[-1].get("content") or "")).strip() if users else ""


def overlap_choice(body: Mapping[str, Any]) -> str | None:
    """A named skill, else the best word overlap (at least two shared words), else None."""
    text = user_text(body).lower()
    skills = listed_skills(body)
    for name in skills:
        if name.lower() in text or name.lower().replace("-", " ") in text:
            return name
    words = set(_WORD.findall(text))
    best, best_score = None, 1
    for name, (desc, _) in skills.items():
        score = len(words & set(_WORD.findall(f"{name} {desc}".lower().replace("-", " "))))
        if score > best_score:
            best, best_score = name, score
    return best


def fork_words(task: str) -> int:
    """Words of the sub-agent answer to ``task``: 10 plus one per word of the task."""
    return 10 + len(task.split())


def fork_answer(body: Mapping[str, Any]) -> str:
    """The sub-agent's deterministic answer: ``fork_words`` words."""
    return " ".join(f"w{i}" for i in range(fork_words(user_text(body))))


def default_policy(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
    """Tool calls (or text) for ``body``, honouring the output markers; no tools: a fork."""
    text = user_text(body)
    if not body.get("tools"):
        return fork_answer(body)
    marks = {m.group(1) for m in _MARK.finditer(text)}
    tools = {t["function"]["name"] for t in body.get("tools", [])}
    choice = "no-such-skill" if "unknown" in marks else overlap_choice(body)
    if "text" in marks or choice is None:
        return "No skill applies; answering directly."
    if "Skill" not in tools:
        _, path = listed_skills(body).get(choice, ("", None))
        return [("read_file", json.dumps({"path": path or f"/nowhere/{choice}/SKILL.md"}))]
    if "badjson" in marks:
        return [("Skill", '{"skill": "' + choice)]
    if "noskill" in marks:
        return [("Skill", json.dumps({"args": "x"}))]
    if "newlines" in marks:
        return [("Skill", '{"skill": "' + choice + '", "args": "}\n{\n  "}')]
    if "case" in marks:
        return [("Skill", json.dumps({"skill": choice[:1].upper() + choice[1:]}))]
    call = ("Skill", json.dumps({"skill": choice}))
    if "multi" in marks:
        return [("read_file", json.dumps({"path": "README.md"})), call, call]
    return [call]


class FakeOpenAI:
    """The server; use as a context manager. ``base_url`` ends in ``/v1``.

    Args:
        latency_s: fixed delay before every answer.
        slow_s: delay of a ``[[slow]]`` attempt (set it past the client's timeout).
        retry_after: the ``Retry-After`` header value of injected 429s (seconds).
        policy: replaces ``default_policy``.
        script: per-test faults, ``{substring of the user text: marker text}``, applied as if
            the marker were in the text.
        api_keys: the keys the server accepts (``None``: any).
        models: the models it serves (``None``: any).
    """

    def __init__(
        self,
        *,
        latency_s: float = 0.0,
        slow_s: float = 3.0,
        retry_after: str = "0.05",
        policy: Policy = default_policy,
        script: Mapping[str, str] | None = None,
        api_keys: Collection[str] | None = None,
        models: Collection[str] | None = None,
        hang_s: float = 60.0,
        drip_s: float = 0.1,
        context_tokens: int | None = None,
    ) -> None:
        self.latency_s = latency_s
        self.hang_s = hang_s
        self.drip_s = drip_s
        self.context_tokens = context_tokens
        self.disconnects = 0
        self.slow_s = slow_s
        self.retry_after = retry_after
        self.policy = policy
        self.script = dict(script or {})
        self.api_keys = None if api_keys is None else set(api_keys)
        self.models = None if models is None else set(models)
        self.requests = 0
        self.bodies: list[dict[str, Any]] = []
        self.usages: list[dict[str, int]] = []
        self.answered: list[tuple[dict[str, Any], dict[str, int]]] = []
        self.authorizations: list[str] = []
        self.times: list[float] = []
        self._attempts: Counter[str] = Counter()
        self._lock = threading.Lock()
        billed_prompt_tokens({"messages": [{"role": "user", "content": "warm up"}]})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._server.request_queue_size = 256
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def reset(self) -> None:
        with self._lock:
            self.requests = 0
            self.bodies.clear()
            self.usages.clear()
            self.answered.clear()
            self.times.clear()
            self._attempts.clear()

    def _marks(self, body: Mapping[str, Any]) -> dict[str, int]:
        text = user_text(body)
        for needle, marker in self.script.items():
            if needle in text:
                text += " " + marker
        return {m.group(1): int(m.group(2) or 1) for m in _MARK.finditer(text)}

    def _waited(self, seconds: float, conn: socket.socket | None) -> bool:
        """Sleep ``seconds``; False (and counted) as soon as the client hangs up."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if conn is None:
                time.sleep(left)
                break
            readable, _, _ = select.select([conn], [], [], min(left, 0.02))
            if readable and not _peek(conn):
                with self._lock:
                    self.disconnects += 1
                return False
        return True

    def _answer(
        self, body: dict[str, Any], auth: str, conn: socket.socket | None = None
    ) -> tuple[int, dict[str, str], Any] | None:
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
        with self._lock:
            self.requests += 1
            self.times.append(time.time())
            self.bodies.append(body)
            self.authorizations.append(auth)
            self._attempts[digest] += 1
            attempt = self._attempts[digest]
        marks = self._marks(body)
        if self.latency_s and not self._waited(self.latency_s, conn):
            return None
        if attempt <= marks.get("slow", 0) and not self._waited(self.slow_s, conn):
            return None
        if "hang" in marks and not self._waited(self.hang_s, conn):
            return None
        refused = self._refusal(body, auth, marks)
        if refused is not None:
            return refused[0], {}, {"error": refused[1]}
        if attempt <= marks.get("429", 0):
            error = {"error": {"message": "rate limited", "type": "rate_limit", "code": 429}}
            return 429, {"Retry-After": self.retry_after}, error
        if attempt <= marks.get("500", 0) or "always500" in marks:
            return 500, {}, {"error": {"message": "server exploded", "type": "server_error"}}
        if "echokey" in marks:
            answer = _completion(body, f"your key is {auth.removeprefix('Bearer ')}")
        else:
            answer = _completion(body, self.policy(body))
        _break(answer, marks)
        with self._lock:
            self.usages.append(answer["usage"])
            self.answered.append((body, answer["usage"]))
        return 200, {}, answer

    def _refusal(
        self, body: Mapping[str, Any], auth: str, marks: Mapping[str, int]
    ) -> tuple[int, dict[str, str]] | None:
        """A provider's refusal of the key, the model or the request, if any applies."""
        key = auth.removeprefix("Bearer ")
        if "401" in marks or (self.api_keys is not None and key not in self.api_keys):
            return 401, {"message": "Incorrect API key provided.", "code": "invalid_api_key"}
        if "403" in marks:
            return 403, {"message": "Project does not have access to this model."}
        model = str(body.get("model"))
        if "404" in marks or (self.models is not None and model not in self.models):
            return 404, {
                "message": f"The model `{model}` does not exist.",
                "code": "model_not_found",
            }
        if "400" in marks:
            return 400, {
                "message": "Invalid schema for function 'Skill'.",
                "type": "invalid_request_error",
            }
        if "context" in marks:
            return 400, {
                "message": "This model's maximum context length is 128000 tokens. However, "
                "your messages resulted in 131000 tokens.",
                "type": "invalid_request_error",
                "code": "context_length_exceeded",
            }
        tokens = billed_prompt_tokens(body)
        if "llamactx" in marks or (self.context_tokens and tokens > self.context_tokens):
            window = self.context_tokens or 512
            return 400, {
                "message": f"Requested tokens ({tokens}) exceed context window of {window}",
                "type": "invalid_request_error",
            }
        return None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # no delayed-ACK wait on kept-alive connections

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/stats"):
                    self._send(200, {}, {"requests": fake.requests})
                else:
                    self._send(404, {}, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {}, {"error": {"message": f"no route {self.path}"}})
                    return
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                auth = self.headers.get("Authorization", "")
                body = json.loads(raw)
                answer = fake._answer(body, auth, self.connection)
                if answer is None:
                    self.close_connection = True
                elif body.get("stream") and answer[0] == 200:
                    self._stream(answer[2], "drip" in fake._marks(body))
                else:
                    self._send(*answer)

            def _stream(self, completion: dict[str, Any], drip: bool) -> None:
                """The completion as server-sent chunks (after empty ones, with ``drip``)."""
                self.close_connection = True
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    drips = int(fake.hang_s / fake.drip_s) if drip else 0
                    for _ in range(drips):
                        self._event(_chunk(completion, {"content": ""}, None))
                        if not fake._waited(fake.drip_s, self.connection):
                            return
                    for delta, finish in _deltas(completion):
                        self._event(_chunk(completion, delta, finish))
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    with fake._lock:
                        fake.disconnects += 1

            def _event(self, payload: Any) -> None:
                self.wfile.write(b"data: " + json.dumps(payload).encode() + b"\n\n")
                self.wfile.flush()

            def _send(self, status: int, headers: Mapping[str, str], payload: Any) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                return

        return Handler


def _peek(conn: socket.socket) -> bytes:
    """The next byte the client sent, without taking it; nothing once it hung up."""
    try:
        return conn.recv(1, socket.MSG_PEEK)
    except OSError:
        return b""


def _chunk(
    completion: Mapping[str, Any], delta: Mapping[str, Any], finish: str | None
) -> dict[str, Any]:
    return {
        "id": completion["id"],
        "object": "chat.completion.chunk",
        "created": completion["created"],
        "model": completion["model"],
        "choices": [{"index": 0, "delta": dict(delta), "finish_reason": finish}],
    }


def _deltas(completion: Mapping[str, Any]) -> list[tuple[dict[str, Any], str | None]]:
    """A completion's message as stream deltas: role, text, each tool call in two parts."""
    choice = completion["choices"][0]
    message = choice["message"] or {}
    out: list[tuple[dict[str, Any], str | None]] = [({"role": "assistant"}, None)]
    if message.get("content"):
        out.append(({"content": message["content"]}, None))
    for i, call in enumerate(message.get("tool_calls") or []):
        fn = call["function"]
        head = {"index": i, "id": call["id"], "type": "function"}
        out.append(({"tool_calls": [{**head, "function": {"name": fn["name"]}}]}, None))
        out.append(
            ({"tool_calls": [{"index": i, "function": {"arguments": fn["arguments"]}}]}, None)
        )
    out.append(({}, choice["finish_reason"]))
    return out


def _break(answer: dict[str, Any], marks: Mapping[str, int]) -> None:
    """Damage a completion as the ``nochoices``/``nofunction``/``noname``/``nullmessage``
    markers ask."""
    if "nochoices" in marks:
        answer["choices"] = []
    if "nullmessage" in marks:
        answer["choices"][0]["message"] = None
    call = {"id": "call_0", "type": "function"}
    if "nofunction" in marks:
        answer["choices"][0]["message"] = {
            "role": "assistant",
            "content": None,
            "tool_calls": [call],
        }
    if "noname" in marks:
        call["function"] = {"arguments": "{}"}
        answer["choices"][0]["message"] = {
            "role": "assistant",
            "content": None,
            "tool_calls": [call],
        }


def billed_prompt_tokens(body: Mapping[str, Any]) -> int:
    """Prompt tokens as OpenAI counts them: messages and tool schemas, gpt-4o tokenizer."""
    from skillbench.tokens import litellm_offline

    litellm = litellm_offline()
    return int(
        litellm.token_counter(
            model="gpt-4o", messages=body.get("messages", []), tools=body.get("tools") or None
        )
    )


def refused_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens: connections are refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _completion(body: Mapping[str, Any], answer: list[tuple[str, str]] | str) -> dict[str, Any]:
    """A chat.completion object holding ``answer`` (tool calls or text) and token usage."""
    prompt_tokens = billed_prompt_tokens(body)
    completion_tokens = 12
    if isinstance(answer, str):
        message: dict[str, Any] = {"role": "assistant", "content": answer}
        finish = "stop"
        if not body.get("tools"):
            completion_tokens = len(answer.split())
    else:
        calls = [
            {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
            for i, (n, a) in enumerate(answer)
        ]
        message = {"role": "assistant", "content": None, "tool_calls": calls}
        finish = "tool_calls"
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": str(body.get("model", "fake")),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def main() -> None:
    """Serve until killed; prints the base URL first (``GET /v1/stats`` counts requests)."""
    parser = argparse.ArgumentParser(description="fake OpenAI-compatible server")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per answer")
    args = parser.parse_args()
    with FakeOpenAI(latency_s=args.latency) as server:
        print(server.base_url, flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
