"""What a failed call means: stop the run, try again, or record the decision as failed.

A provider that refuses the key, the model or the request's form (a bad parameter) will
refuse every later call the same way, so retrying it only burns time and leaves a run full of
identical errors: those answers raise :class:`ModelUnavailable`, which ends the run with the
provider's message. A refusal of one request's length or content is that decision's
``error``: the next request may fit.
Rate limits, server errors, timeouts and dropped connections may pass, so they are retried a
bounded number of times and then recorded as that decision's ``error``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any, Literal

from skillbench._errors import SkillbenchError

FailureKind = Literal[
    "credentials",
    "unreachable",
    "authentication",
    "permission",
    "unknown_model",
    "bad_request",
    "no_tools",
    "no_answer",
]

LABELS: dict[FailureKind, str] = {
    "credentials": "missing credentials",
    "unreachable": "cannot reach",
    "authentication": "authentication failed",
    "permission": "permission denied",
    "unknown_model": "unknown model",
    "bad_request": "request rejected",
    "no_tools": "the model does not accept tools",
    "no_answer": "the endpoint gave no usable answer",
}

RETRYABLE = frozenset({408, 409, 425, 429})
"""4xx statuses that may pass on their own (timeouts, conflicts, rate limits)."""
FATAL_STATUS: dict[int, FailureKind] = {
    400: "bad_request",
    401: "authentication",
    403: "permission",
    404: "unknown_model",
    422: "bad_request",
}
PER_REQUEST = frozenset(
    {"ContextWindowExceededError", "ContentPolicyViolationError", "RejectedRequestError"}
)
"""litellm's classes for refusals of one request (its length, its content): that decision
fails, the run goes on, because the next request may well pass."""
_PER_REQUEST_WORDS = re.compile(
    r"context (?:window|length|size|limit)|context_length_exceeded|maximum context|"
    r"too many (?:input )?tokens|prompt is too long|input is too long|content (?:policy|filter)",
    re.I,
)
"""The same refusals in the words of servers litellm does not map (llama.cpp's "Requested
tokens (N) exceed context window of M", for one)."""
UNPARSED = "Invalid response object"
"""How litellm begins the error it raises for an HTTP 200 body it cannot turn into a response
(a tool call without a function, for example): the model answered, the answer is broken."""
_RAW_START = "received_args={'response_object': "
_RAW_END = ", 'model_response_object': "
_PREFIX = re.compile(r"^(?:litellm\.)?\w+(?:Error|Exception)(?::| -) ")
MESSAGE_CHARS = 1000
"""Longest error text kept (litellm quotes whole tracebacks in some errors)."""
NOT_LISTENING = "nothing is listening at"
"""How a refused connection is reported (followed by the address)."""
_CONNECT_ERRORS = frozenset({"ConnectError", "ConnectTimeout", "ClientConnectorError"})
_TIMEOUT_ERRORS = frozenset({"Timeout", "APITimeoutError"})


class ModelUnavailable(SkillbenchError):
    """A selector's model cannot be used: every further call would fail the same way.

    Attributes:
        model: the litellm model string.
        kind: what failed (credentials, authentication, unknown model …).
        reason: the provider's message, or what is missing, with secrets removed.
        status: the HTTP status the provider answered with, when there was one.
    """

    def __init__(
        self, model: str, kind: FailureKind, reason: str, status: int | None = None
    ) -> None:
        self.model = model
        self.kind = kind
        self.reason = reason
        self.status = status
        super().__init__(f"model {model}: {describe(kind, reason, status)}")


def describe(kind: FailureKind, reason: str, status: int | None = None) -> str:
    """``authentication failed (401): <reason>``; ``cannot reach <address …>``."""
    if kind == "unreachable":
        return reason if reason.startswith(NOT_LISTENING) else f"{LABELS[kind]} {reason}"
    code = f" ({status})" if status is not None else ""
    return f"{LABELS[kind]}{code}: {reason}"


def message_of(exc: BaseException) -> str:
    """The exception's type and the provider's own words, without litellm's stacked prefixes
    (``litellm.AuthenticationError: AuthenticationError: OpenAIException - …``)."""
    text = str(exc)
    while match := _PREFIX.match(text):
        text = text[match.end() :]
    return f"{type(exc).__name__}: {text or 'no message'}"


def status_of(exc: BaseException) -> int | None:
    if isinstance(exc, TimeoutError):
        return 408
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the exceptions it was raised from, outermost first."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def unreachable(exc: BaseException) -> bool:
    """True when no connection was made (refused, unknown host, connect timeout).

    litellm reports these under several names and statuses (a 500 for OpenAI-compatible
    servers, ``APIConnectionError`` for Ollama); the underlying socket error is in the chain.
    """
    return any(
        (isinstance(e, OSError) and not isinstance(e, TimeoutError))
        or type(e).__name__ in _CONNECT_ERRORS
        for e in causes(exc)
    )


def refused(exc: BaseException) -> bool:
    """True when the address answered that nothing listens on that port."""
    return any(isinstance(e, ConnectionRefusedError) for e in causes(exc))


def timed_out(exc: BaseException) -> bool:
    """True for skillbench's own deadline and for litellm's or the client's timeouts."""
    return isinstance(exc, TimeoutError) or type(exc).__name__ in _TIMEOUT_ERRORS


def per_request(exc: BaseException) -> bool:
    """A refusal of this request only (too long for the context, refused content)."""
    if type(exc).__name__ in PER_REQUEST:
        return True
    status = status_of(exc)
    return status in (400, 413, 422) and bool(_PER_REQUEST_WORDS.search(str(exc)))


def fatal_kind(exc: BaseException) -> FailureKind | None:
    """The kind of a failure no retry can fix; ``None`` for transient or per-request ones."""
    if per_request(exc):
        return None
    status = status_of(exc)
    if status is None or status in RETRYABLE or not 400 <= status < 500:
        return None
    return FATAL_STATUS.get(status, "bad_request")


def retryable(exc: BaseException) -> bool:
    """Worth another attempt: rate limits, 5xx, timeouts and connection errors."""
    if per_request(exc) or unparsed(exc):
        return False
    status = status_of(exc)
    if status is None:
        return unreachable(exc) or timed_out(exc)
    return status in RETRYABLE or status >= 500


def unparsed(exc: BaseException) -> bool:
    """True when the server answered but litellm could not read the answer."""
    return UNPARSED in str(exc)


def raw_answer(exc: BaseException) -> dict[str, Any] | None:
    """The body litellm could not read, recovered from its error text when possible."""
    text = str(exc)
    start = text.find(_RAW_START)
    end = text.find(_RAW_END, start)
    if start < 0 or end < 0:
        return None
    try:
        value = ast.literal_eval(text[start + len(_RAW_START) : end])
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
