"""Wire formats: the model APIs agents speak, each read and answered one way.

An agent's record names its API (``ApiShape``); everything that depends on it lives in one
``WireFormat``: how the loopback recorder answers a request, which texts and tools a request
carries, and how the bridge forwards a request to a real model through litellm and reads the
answer. The recorder and the bridge only pick the wire a request path belongs to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, NotRequired, Protocol, TypedDict

from skillbench._registry import Registry
from skillbench.agentspec import ApiShape
from skillbench.types import JsonObject, JsonValue


class Recorded(NamedTuple):
    """One request as received: the path (with query) and the decoded JSON body."""

    path: str
    body: JsonObject


@dataclass(frozen=True)
class Reply:
    """What the model answers: text, or a call of ``tool``.

    A function call carries ``raw_arguments`` (JSON text, passed on verbatim); a call of a
    free-form tool carries ``custom_input`` instead.
    """

    text: str = "ok"
    tool: str | None = None
    raw_arguments: str = "{}"
    custom_input: str | None = None
    input_tokens: int = 1
    output_tokens: int = 1


DONE = "done"
"""What a model answers when it has nothing to say (a turn the bridge ends locally)."""

Relay = Literal["chat", "native"]
"""How the bridge reaches a real model: ``chat``, translated to chat completions (any
OpenAI-compatible server); ``native``, the provider's own API of the agent's shape."""


@dataclass(frozen=True)
class Upstream:
    """Where the bridge sends model calls."""

    model: str
    api_base: str | None = None
    api_key: str | None = None
    wire: Relay = "chat"
    timeout: float = 120.0
    max_tokens: int = 1024
    temperature: float | None = 0.0


class CallArgs(TypedDict):
    """What every litellm call of the bridge is given: the model and where it is."""

    model: str
    api_base: str | None
    api_key: str | None
    timeout: float
    temperature: NotRequired[float]


class RequestText(NamedTuple):
    """One text of a request and who it is from (``system``, ``developer``, ``user`` …)."""

    role: str
    text: str


class WireFormat(Protocol):
    """One model API as an agent speaks it."""

    @property
    def api(self) -> ApiShape: ...

    def handles(self, path: str) -> bool:
        """Whether a request to ``path`` is of this API."""
        ...

    def answer(self, recorded: Recorded, reply: Reply) -> tuple[bytes, str]:
        """The response body and content type that make ``reply`` the model's answer."""
        ...

    def texts(self, body: JsonObject) -> list[RequestText]:
        """Every text the request carries, in order."""
        ...

    def tools(self, body: JsonObject) -> list[JsonObject]:
        """The tool definitions the request declares, as plain objects."""
        ...

    def forward(self, upstream: Upstream, recorded: Recorded, call: CallArgs) -> JsonObject:
        """The answer of ``upstream``'s model to the request, through litellm, as JSON."""
        ...

    def read(self, recorded: Recorded, answer: JsonObject) -> Reply:
        """The model's first tool call in ``answer`` (or its text) as a ``Reply``."""
        ...

    def usage(self, answer: JsonObject) -> tuple[int, int]:
        """The answer's input and output tokens."""
        ...


WIRES: Registry[WireFormat] = Registry("wire")
"""API shape → its wire format."""


def wire_of(path: str) -> WireFormat | None:
    """The wire a request to ``path`` speaks (None: none skillbench answers)."""
    return next((w for w in WIRES.values() if w.handles(path)), None)


def array(value: JsonValue) -> list[JsonValue]:
    """``value`` when it is a JSON array, else empty: a field a vendor left out, or null."""
    return value if isinstance(value, list) else []


def objects(value: JsonValue) -> list[JsonObject]:
    """The JSON objects of an array field (nothing for a missing field; non-objects skipped)."""
    return [item for item in array(value) if isinstance(item, dict)]


def content_texts(content: JsonValue) -> list[str]:
    """The texts of a message's content: a string, or the ``text`` of each part."""
    if isinstance(content, str):
        return [content]
    return [str(p["text"]) for p in objects(content) if isinstance(p.get("text"), str)]


def as_json(response: Any, *, exclude_none: bool = False) -> JsonObject:
    """A litellm response object (or a mapping) as plain JSON."""
    if hasattr(response, "model_dump"):
        response = response.model_dump(exclude_none=exclude_none)
    return dict(json.loads(json.dumps(response, default=str)))


def count(value: JsonValue) -> int:
    """A token count from an answer (0 when absent or not a number)."""
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def field(value: JsonValue, key: str) -> JsonValue:
    """``value[key]`` when ``value`` is an object, else None."""
    return value.get(key) if isinstance(value, dict) else None


def sse(events: list[tuple[str | None, Any]]) -> bytes:
    """Server-sent events: ``event:`` lines where named, one JSON ``data:`` line each."""
    lines = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        lines.append(f"{head}data: {data if isinstance(data, str) else _json(data)}\n\n")
    return "".join(lines).encode()


def _json(data: Any) -> str:
    return json.dumps(data)
