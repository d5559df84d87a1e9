"""Calling a model: one background event loop, a semaphore per endpoint, bounded retries.

``select`` is synchronous (the replay engine is), so calls run on one process-wide asyncio
loop in a daemon thread: litellm's async HTTP clients stay bound to a single loop across
batches, and a Ctrl-C in the main thread cancels the batch's tasks. Retries back off
exponentially with jitter on 429, 5xx, timeouts and dropped connections and honour
``Retry-After``; what no retry can fix (400, 401, 403, 404 …) comes back at once marked
``fatal`` (see ``_errors``). No error text leaves this module unredacted. Each try is one
``CallAttempt``, made here or by a worker process (``_workers``); the loop around the tries, with
its semaphore, spend check and backoff, always runs here.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import threading
import time
import warnings
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, NamedTuple, Protocol, TypeVar

from skillbench.selectors._litellm._errors import (
    MESSAGE_CHARS,
    NOT_LISTENING,
    FailureKind,
    fatal_kind,
    message_of,
    raw_answer,
    refused,
    retryable,
    status_of,
    timed_out,
    unparsed,
    unreachable,
)
from skillbench.tokens import litellm_offline

T = TypeVar("T")
DEADLINE_GRACE_S = 5.0
"""How long past ``timeout`` skillbench's own deadline ends a try (litellm's local work per
call, which the HTTP client's timeout does not count, takes seconds on a busy machine)."""
MAX_WAIT_S = 60.0
"""Longest single wait between attempts, whatever ``Retry-After`` asks."""
_SECRET_ENV = re.compile(r"(API_KEY|_TOKEN|_SECRET|_PASSWORD)$")
REDACTED = "[REDACTED]"


class _Runtime:
    """The process-wide loop thread, per-endpoint semaphores and in-flight calls.

    litellm builds each call's coroutine in a thread pool and awaits it afterwards; a call
    cancelled in between (a timeout, Ctrl-C, a fatal answer elsewhere) leaves that coroutine
    unstarted, with nothing open, and Python would warn about it at exit: those warnings,
    and only those, are silenced.
    """

    def __init__(self) -> None:
        warnings.filterwarnings(
            "ignore", r"coroutine '\w+\.acompletion' was never awaited", RuntimeWarning
        )
        self.loop = asyncio.new_event_loop()
        self.semaphores: dict[str, asyncio.Semaphore] = {}
        self.inflight: dict[str, asyncio.Task[Any]] = {}
        threading.Thread(target=self.loop.run_forever, name="skillbench-llm", daemon=True).start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the loop and wait; an interrupt cancels it before propagating."""
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def semaphore(self, endpoint: str, limit: int) -> asyncio.Semaphore:
        """The semaphore every selector calling ``endpoint`` with this limit shares."""
        key = f"{endpoint}|{limit}"
        if key not in self.semaphores:
            self.semaphores[key] = asyncio.Semaphore(max(1, limit))
        return self.semaphores[key]


_runtime: _Runtime | None = None
_runtime_lock = threading.Lock()


def runtime() -> _Runtime:
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            _runtime = _Runtime()
        return _runtime


def secrets(*key_envs: str | None) -> list[str]:
    """Values to scrub: the configured keys and any ``*_API_KEY``/``*_TOKEN``-like variable."""
    names = {n for n in os.environ if _SECRET_ENV.search(n)}
    names.update(n for n in key_envs if n)
    values = {os.environ.get(n, "") for n in names}
    return sorted((v for v in values if len(v) >= 6), key=len, reverse=True)


def redact(value: Any, hidden: Iterable[str]) -> Any:
    """``value`` (str, or JSON-like data) with every secret replaced by ``[REDACTED]``.

    A secret is also found JSON-escaped (a key holding ``"`` or ``\\`` that a server echoes
    inside an error text carrying JSON), and in every string and key of nested data.
    """
    forms = {form for secret in hidden for form in (secret, json.dumps(secret)[1:-1])}
    forms |= {json.dumps(secret, ensure_ascii=False)[1:-1] for secret in hidden}
    return _scrub(value, sorted(forms, key=len, reverse=True)) if forms else value


def _scrub(value: Any, forms: list[str]) -> Any:
    if isinstance(value, str):
        for form in forms:
            value = value.replace(form, REDACTED)
        return value
    if isinstance(value, dict):
        return {_scrub(k, forms): _scrub(v, forms) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub(v, forms) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Attempts, first wait and per-attempt timeout; ``reconnect``: retry when no connection
    could be made (off for the pre-flight, where a dead server should fail in seconds)."""

    max_attempts: int = 5
    backoff_s: float = 1.0
    timeout: float = 60.0
    reconnect: bool = True


@dataclass
class Fetched:
    """The outcome of one model call (after retries), JSON-ready and redacted.

    Attributes:
        response: the answer as received; also kept when it is unusable (no choices).
        error: why there is no usable answer; ``None`` when ``response`` can be read.
        malformed: the server answered with something that is not a chat completion.
        fatal: set when no later call can succeed either (bad key, unknown model …).
        unreachable: no connection could be made at all.
        stopped: never sent, because the spend cap refused it.
        latency_ms: time spent in the tries themselves (queueing and backoff excluded).
    """

    response: dict[str, Any] | None = None
    error: str | None = None
    status: int | None = None
    attempts: int = 0
    usage: dict[str, int] = field(default_factory=dict)
    cost_usd: float | None = None
    malformed: bool = False
    fatal: FailureKind | None = None
    unreachable: bool = False
    stopped: bool = False
    latency_ms: float | None = None

    @property
    def ok(self) -> bool:
        return self.response is not None and self.error is None


def retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked to wait (``retry-after-ms`` or ``Retry-After``), if any."""
    headers: Any = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        if headers.get("retry-after-ms") is not None:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, AttributeError):
        return None


def backoff(attempt: int, base: float, asked: float | None) -> float:
    """``Retry-After`` when given, else exponential backoff with jitter (half to full)."""
    if asked is not None:
        return min(asked, MAX_WAIT_S)
    delay = min(base * 2 ** (attempt - 1), MAX_WAIT_S)
    return random.uniform(delay / 2, delay)


def usage_of(response: Mapping[str, Any]) -> dict[str, int]:
    usage = response.get("usage") or {}
    return {
        k: int(usage[k])
        for k in ("prompt_tokens", "completion_tokens", "total_tokens")
        if isinstance(usage.get(k), int | float)
    }


def cost_of(response: Any) -> float | None:
    """Dollars from litellm's offline cost map; None for models it does not price.

    litellm already priced the response while building it (``_hidden_params``); pricing it
    again costs milliseconds of CPU per call, which matters at high concurrency.
    """
    hidden = getattr(response, "_hidden_params", None) or {}
    if "response_cost" in hidden:
        known = hidden["response_cost"]
        return float(known) if isinstance(known, int | float) else None
    litellm = litellm_offline()
    try:
        return float(litellm.completion_cost(completion_response=response))
    except Exception:
        return None


class CallAttempt(NamedTuple):
    """One try of a call: what it got, and whether another try may do better.

    Picklable, so a worker process can make the try and the parent keep the retry loop.
    """

    fetched: Fetched
    retryable: bool = False
    retry_after: float | None = None


class Sender(Protocol):
    """Makes one try of a chat request: in this process or in a worker (see ``_workers``)."""

    async def __call__(
        self, request: Mapping[str, Any], policy: RetryPolicy, hidden: list[str]
    ) -> CallAttempt: ...


async def attempt(
    request: Mapping[str, Any], policy: RetryPolicy, hidden: list[str], router: Any = None
) -> CallAttempt:
    """One ``acompletion`` (through ``router`` when given); never raises for model errors.

    The HTTP client gives up on a server silent for ``policy.timeout``; skillbench's own
    deadline, ``DEADLINE_GRACE_S`` later, ends a try whatever the server does (a stream
    that never ends, a body that trickles). Either way the connection is closed, so the
    server stops generating, and the try fails as ``timed out after N s``.
    """
    complete = router.acompletion if router is not None else litellm_offline().acompletion
    deadline = policy.timeout + DEADLINE_GRACE_S
    try:
        async with asyncio.timeout(deadline):
            response = await complete(
                **request, timeout=policy.timeout, max_retries=0, num_retries=0
            )
            if request.get("stream"):
                response = await _assembled(response, request)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        again = retryable(exc) and (policy.reconnect or not unreachable(exc))
        fetched = failure(exc, 1, hidden)
        if timed_out(exc):
            waited = deadline if isinstance(exc, TimeoutError) else policy.timeout
            fetched.error, fetched.status = f"timed out after {waited:g} s", 408
        elif refused(exc):
            fetched.error = f"{NOT_LISTENING} {request.get('api_base') or 'the endpoint'}"
        return CallAttempt(fetched, again, retry_after(exc))
    return CallAttempt(answered(response, 1, hidden))


async def _assembled(stream: Any, request: Mapping[str, Any]) -> Any:
    """A streamed answer (``params: {stream: true}``) as one response, as litellm builds it."""
    chunks = [chunk async for chunk in stream]
    return litellm_offline().stream_chunk_builder(chunks, messages=request.get("messages"))


async def call_model(
    request: Mapping[str, Any],
    semaphore: asyncio.Semaphore,
    policy: RetryPolicy,
    hidden: list[str],
    may_send: Callable[[], bool] = lambda: True,
    send: Sender = attempt,
) -> Fetched:
    """``request`` with retries, each try made by ``send``; never raises for model errors.

    ``may_send`` is asked once a slot is free, just before the first attempt: a spend cap
    reached while this call queued stops it (``stopped``) instead of sending it. The
    semaphore, the cap and the backoff stay here whichever process makes the tries.
    """
    tries, spent = 0, 0.0
    while True:
        tries += 1
        async with semaphore:
            if tries == 1 and not may_send():
                return Fetched(stopped=True)
            start = time.perf_counter()
            outcome = await send(request, policy, hidden)
            spent += time.perf_counter() - start
        outcome.fetched.attempts = tries
        outcome.fetched.latency_ms = spent * 1000
        if outcome.retryable and tries < policy.max_attempts:
            await asyncio.sleep(backoff(tries, policy.backoff_s, outcome.retry_after))
            continue
        return outcome.fetched


def failure(exc: BaseException, attempts: int, hidden: list[str]) -> Fetched:
    """What an exception leaves: a readable body when litellm only failed to parse it."""
    raw = raw_answer(exc) if unparsed(exc) else None
    if raw is not None:
        return Fetched(
            response=redact(raw, hidden),
            error=unanswered(raw),
            attempts=attempts,
            usage=usage_of(raw),
        )
    return Fetched(
        error=redact(message_of(exc), hidden)[:MESSAGE_CHARS],
        status=status_of(exc),
        attempts=attempts,
        malformed=unparsed(exc),
        fatal=fatal_kind(exc),
        unreachable=unreachable(exc),
    )


def answered(response: Any, attempts: int, hidden: list[str]) -> Fetched:
    """A response litellm could read; one without choices is kept but is no answer."""
    raw = json.loads(json.dumps(response.model_dump(), default=str))
    fetched = Fetched(
        response=redact(raw, hidden),
        attempts=attempts,
        usage=usage_of(raw),
        cost_usd=cost_of(response),
    )
    fetched.error = unanswered(raw)
    return fetched


def unanswered(raw: Mapping[str, Any]) -> str | None:
    """Why a response read from the wire holds no turn to score (``None``: it holds one).

    A choice whose ``message`` is null is no abstention: the model said nothing at all.
    """
    choices = raw.get("choices")
    if not isinstance(choices, list) or not choices:
        return "the response has no choices"
    first = choices[0]
    if not isinstance(first, Mapping) or not isinstance(first.get("message"), Mapping):
        return "the response's first choice has no message"
    return None
