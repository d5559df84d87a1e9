"""The ``litellm`` selector: asks a real model, exactly as an agent of the profile would."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Coroutine, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import replace
from functools import partial
from typing import Any

from skillbench.cache import ResponseCache, cache_key
from skillbench.listing import ListedSkill
from skillbench.selectors._controls import explicit_request
from skillbench.selectors._litellm._client import (
    Fetched,
    RetryPolicy,
    Sender,
    attempt,
    call_model,
    redact,
    runtime,
    secrets,
)
from skillbench.selectors._litellm._detect import detect
from skillbench.selectors._litellm._errors import ModelUnavailable
from skillbench.selectors._litellm._fork import (
    ForkTask,
    expected_task,
    fork_detail,
    fork_estimate,
    fork_task,
)
from skillbench.selectors._litellm._params import LitellmParams
from skillbench.selectors._litellm._preflight import (
    PreflightVerdict,
    key_check,
    listing_probe,
    probe,
    tools_check,
)
from skillbench.selectors._litellm._prompt import Prompt, build_prompt
from skillbench.selectors._litellm._router import build_router
from skillbench.selectors._litellm._spend import (
    EST_COMPLETION_TOKENS,
    Spend,
    call_estimate,
    estimate_cost,
    prompt_tokens,
)
from skillbench.selectors._litellm._workers import RouterRef, worker_pool
from skillbench.selectors._types import (
    Check,
    Decision,
    DecisionKind,
    Delivery,
    Query,
    SelectorEnv,
)
from skillbench.types import RunStopped

NOT_SENT = "not sent: max_cost_usd reached"
CANCEL_WAIT_S = 5.0
"""Longest wait for abandoned calls to close their connections."""


class LitellmSelector:
    """A model behind litellm, with skillbench's response cache and spend control.

    Identical prompts (same model, endpoint, messages, tools, sampling params and repeat)
    are sent once: from the cache across runs, from the in-flight table within a batch.
    The API key is read from ``api_key_env`` at call time and scrubbed from everything kept.
    Before its first uncached call the selector runs its pre-flight; a failed check, or an
    answer no retry can fix (bad key, unknown model …), raises ``ModelUnavailable``.
    The replay engine uses ``submit`` (each decision delivered as its call ends, ``cancel``
    closing what is still in flight); ``select`` answers a whole batch at once.
    """

    name = "litellm"

    def __init__(self, params: LitellmParams, env: SelectorEnv) -> None:
        self.params = params
        self.cache = ResponseCache(env.cache_dir) if params.cache else None
        self.max_concurrency = env.max_concurrency
        self.quiet = env.quiet
        self.trigger_threshold = params.trigger_threshold
        self.spend = Spend()
        self.policy = RetryPolicy(params.max_attempts, params.backoff_s, params.timeout)
        self.endpoint = params.api_base or params.model.split("/", 1)[0]
        self._stop: str | None = None
        self._refused: ModelUnavailable | None = None
        """Set by the first answer no retry can fix: no later call of this selector is sent."""
        self._warned = False
        self._verdict: PreflightVerdict | None = None
        self._verdict_lock = asyncio.Lock()
        self._sender: Sender | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- requests -------------------------------------------------------------------------

    def _hidden(self) -> list[str]:
        """Secrets to scrub: the key variables of the selector and of every deployment."""
        router = self.params.router
        return secrets(self.params.api_key_env, *(router.key_envs if router else ()))

    def _send(self) -> Sender:
        """Who makes each try: worker processes (``processes`` > 1), else this process,
        through litellm's Router when the config has a ``router`` section."""
        if self._sender is None:
            n, spec = self.params.processes, self.params.router
            if n > 1:
                ref = None if spec is None else RouterRef(spec.share(n), self.params.model)
                self._sender = worker_pool(n, ref).send
            elif spec is not None:
                router = build_router(spec, self.params.model)
                self._sender = partial(attempt, router=router)
            else:
                self._sender = attempt
        return self._sender

    def control_request(self, entry: ListedSkill) -> str:
        """The model reads the listing itself: any shown skill can be asked for in words."""
        return explicit_request("words", entry.name)

    def prompt(self, query: Query) -> tuple[Prompt, str]:
        """The chat request for ``query`` and its cache key."""
        prompt = build_prompt(query, self.params.system_prompt, self.params.prompt)
        tools = {"tools": prompt.tools, "tool_choice": prompt.tool_choice}
        return prompt, self._key(prompt.messages, tools, self.params.params, query.repeat)

    def fork_request(self, query: Query, decision: Decision) -> tuple[ForkTask, str] | None:
        """The sub-agent call ``decision`` triggers and its cache key (``None``: no fork)."""
        return self._keyed(fork_task(query, decision, self.params.fork_system_prompt), query)

    def _keyed(self, task: ForkTask | None, query: Query) -> tuple[ForkTask, str] | None:
        if task is None:
            return None
        return task, self._key(task.messages, {}, self.params.fork_params, query.repeat)

    def _key(
        self,
        messages: list[dict[str, Any]],
        tools: Mapping[str, Any],
        params: Mapping[str, Any],
        repeat: int,
    ) -> str:
        return cache_key(
            model=self.params.model,
            api_base=self.params.api_base,
            messages=messages,
            tools=tools.get("tools"),
            tool_choice=tools.get("tool_choice"),
            params=params,
            repeat=repeat,
        )

    def _request(self, messages: list[dict[str, Any]], fields: Mapping[str, Any]) -> dict[str, Any]:
        """The ``acompletion`` arguments: messages, ``fields`` (tools, sampling) and the key."""
        p = self.params
        request: dict[str, Any] = {"model": p.model, "messages": messages, **fields}
        if p.api_base:
            request["api_base"] = p.api_base
        if p.api_key_env:
            request["api_key"] = os.environ.get(p.api_key_env)
        return request

    # -- selecting ------------------------------------------------------------------------

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        """Decide every query concurrently.

        Once ``max_cost_usd`` refuses a call, the queries it refused come back as ``error``
        decisions marked ``not sent`` (nothing paid for is thrown away, and ``--resume``
        asks them again) and the next call raises ``RunStopped`` before sending anything;
        so does this one when the cap refused every query of the batch.

        Raises:
            ModelUnavailable: the pre-flight failed, or the provider refused the key, the
                model or the request; the batch's other calls are cancelled.
            RunStopped: the spend cap was reached.
        """
        if self._stop is None:
            decisions = runtime().run(self._select(queries))
            if self._stop is None or any(d.detail.get("error") != NOT_SENT for d in decisions):
                return decisions
        raise RunStopped(self._stop or NOT_SENT)

    async def _select(self, queries: Sequence[Query]) -> list[Decision]:
        return await _all_or_none([self._one(q) for q in queries])

    def submit(self, queries: Sequence[Query], deliver: Delivery) -> None:
        """Start every query on the background loop; each decision is delivered as it ends.

        A query the spend cap refused is delivered as ``RunStopped`` (``--resume`` asks it
        again), as is every later submission.

        Raises:
            RunStopped: the spend cap was reached before this submission.
        """
        if self._stop is not None:
            raise RunStopped(self._stop)
        loop = runtime().loop
        for i, query in enumerate(queries):
            future = asyncio.run_coroutine_threadsafe(self._tracked(query), loop)
            future.add_done_callback(partial(self._deliver, i, deliver))

    def _deliver(self, i: int, deliver: Delivery, future: Future[Decision]) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            deliver(i, error)
        elif future.result().detail.get("error") == NOT_SENT:
            deliver(i, RunStopped(self._stop or NOT_SENT))
        else:
            deliver(i, future.result())

    async def _tracked(self, query: Query) -> Decision:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            return await self._one(query)
        finally:
            self._tasks.discard(task)

    def cancel(self) -> None:
        """Cancel every submitted call still running; wait until their connections closed."""
        runtime().run(self._cancel_all())

    async def _cancel_all(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CANCEL_WAIT_S)

    async def _one(self, query: Query) -> Decision:
        """The decision on ``query``, with its sub-agent run when ``execute_fork`` is on."""
        decision = await self._decide(query)
        return await self._fork(query, decision) if self.params.execute_fork else decision

    # -- pre-flight -----------------------------------------------------------------------

    def preflight(self) -> list[Check]:
        """Run (once) and return the pre-flight checks; see ``_preflight``."""
        return runtime().run(self._checked()).checks

    async def _checked(self) -> PreflightVerdict:
        async with self._verdict_lock:
            if self._verdict is None:
                self._verdict = await self._run_checks()
            return self._verdict

    def probe_listing(self, query: Query, where: str) -> Check:
        """Send ``query``'s prompt with the trigger tool required (see ``listing_probe``)."""
        return runtime().run(self._probe_listing(query, where))

    async def _probe_listing(self, query: Query, where: str) -> Check:
        semaphore = runtime().semaphore(self.endpoint, self.max_concurrency)
        prompt = build_prompt(query, self.params.system_prompt, self.params.prompt)
        check, fetched = await listing_probe(
            self.params, prompt, where, semaphore, self.policy, self._hidden(), self._send()
        )
        if fetched.response is not None:
            self.spend.add(fetched.usage, fetched.cost_usd)
        return check

    async def _run_checks(self) -> PreflightVerdict:
        checks: list[Check] = []
        steps = (lambda: key_check(self.params), lambda: tools_check(self.params.model))
        for step in steps:  # one at a time: a missing key is reported without loading litellm
            check, failure = step()
            checks.append(check)
            if failure is not None:
                return PreflightVerdict(checks, failure)
        semaphore = runtime().semaphore(self.endpoint, self.max_concurrency)
        check, failure, fetched = await probe(
            self.params, semaphore, self.policy, self._hidden(), self._send()
        )
        if fetched.response is not None:
            self.spend.add(fetched.usage, fetched.cost_usd)
        return PreflightVerdict([*checks, check], failure)

    async def _decide(self, query: Query) -> Decision:
        prompt, key = self.prompt(query)
        fields = {"tools": prompt.tools, "tool_choice": prompt.tool_choice, **self.params.params}
        fetched, cached = await self._get(key, self._request(prompt.messages, fields))
        return self._decision(query, prompt, fetched, cached=cached)

    async def _fork(self, query: Query, decision: Decision) -> Decision:
        """``decision`` with its sub-agent run recorded in ``detail`` (unchanged: no fork)."""
        found = self.fork_request(query, decision)
        if found is None:
            return decision
        task, key = found
        request = self._request(task.messages, self.params.fork_params)
        fetched, cached = await self._get(key, request)
        model = self.params.model
        latency = fetched.latency_ms or 0.0
        extra = fork_detail(task, fetched, model=model, cached=cached, latency_ms=latency)
        detail = redact({**decision.detail, **extra}, self._hidden())
        return replace(decision, detail=detail)

    async def _get(self, key: str, request: dict[str, Any]) -> tuple[Fetched, bool]:
        """The cached answer for ``key``, else one call (shared with concurrent askers)."""
        start = time.perf_counter()
        entry: Mapping[str, Any] | None = self.cache.get(key) if self.cache is not None else None
        if entry is None:
            return await self._fetch_once(key, request), False
        fetched = Fetched(
            response=entry["response"],
            attempts=0,
            usage=entry.get("usage", {}),
            cost_usd=entry.get("cost_usd"),
            latency_ms=(time.perf_counter() - start) * 1000,
        )
        return fetched, True

    async def _fetch_once(self, key: str, request: dict[str, Any]) -> Fetched:
        """One call per distinct key at a time: later askers await the first one's task."""
        table = runtime().inflight
        task = table.get(key)
        if task is None:
            task = asyncio.ensure_future(self._fetch(key, request))
            table[key] = task
            task.add_done_callback(lambda _: table.pop(key, None))
        return await task

    async def _fetch(self, key: str, request: dict[str, Any]) -> Fetched:
        failure = (await self._checked()).failure or self._refused
        if failure is not None:
            raise failure
        semaphore = runtime().semaphore(self.endpoint, self.max_concurrency)
        hidden = self._hidden()
        reserve = self._reservation(request)
        held: list[float] = []

        def may_send() -> bool:
            if self._refused is not None:
                raise self._refused
            if self._stop is None and reserve is not None:
                if self.spend.reserve(reserve, self.params.max_cost_usd or 0.0):
                    held.append(reserve)
                else:
                    self._stop = self._cap_reason(reserve)
            return self._stop is None

        try:
            fetched = await call_model(
                request, semaphore, self.policy, hidden, may_send, self._send()
            )
        finally:
            for amount in held:
                self.spend.release(amount)
        if fetched.fatal is not None:
            self._refused = self._refused or ModelUnavailable(
                self.params.model, fetched.fatal, fetched.error or "", fetched.status
            )
            raise self._refused
        if fetched.response is None:
            return fetched
        self.spend.add(fetched.usage, fetched.cost_usd)
        if self.cache is not None and fetched.ok:
            entry: dict[str, Any] = {
                "model": self.params.model,
                "created": time.time(),
                "response": fetched.response,
                "usage": fetched.usage,
                "cost_usd": fetched.cost_usd,
            }
            await asyncio.to_thread(self.cache.put, key, entry)
        return fetched

    def _reservation(self, request: Mapping[str, Any]) -> float | None:
        """What ``request`` may cost at most; ``None`` without a cap (or a price)."""
        if self.params.max_cost_usd is None:
            return None
        estimate = call_estimate(self.params.model, request)
        if estimate is None:
            self._warn_unpriced()
        return estimate

    def _cap_reason(self, next_call: float) -> str:
        s = self.spend
        return (
            f"max_cost_usd {self.params.max_cost_usd} reached: spent ${s.cost_usd:.4f} on "
            f"{s.calls} calls, ${s.reserved_usd:.4f} reserved by calls in flight, and the next "
            f"call may cost ${next_call:.4f}"
        )

    def _warn_unpriced(self) -> None:
        if not self._warned and not self.quiet:
            print(
                f"warning: litellm has no price for {self.params.model!r}; "
                "max_cost_usd cannot be enforced",
                file=sys.stderr,
            )
        self._warned = True

    def _decision(
        self, query: Query, prompt: Prompt, fetched: Fetched, *, cached: bool
    ) -> Decision:
        """The decision ``fetched`` amounts to, timed by the call itself (0 when not sent)."""
        latency = fetched.latency_ms or 0.0
        base: dict[str, Any] = {"model": self.params.model, "cached": cached}
        if fetched.response is None or fetched.error is not None:
            detail = {
                **base,
                "error": NOT_SENT if fetched.stopped else fetched.error,
                "status": fetched.status,
                "attempts": fetched.attempts,
            }
            if fetched.response is not None:
                detail.update(usage=fetched.usage, cost_usd=fetched.cost_usd)
                detail["response"] = fetched.response
            kind: DecisionKind = "malformed" if fetched.malformed else "error"
            return Decision(kind, latency_ms=latency, detail=detail)
        found = detect(fetched.response, query.listing, prompt.trigger)
        detail = {
            **base,
            "attempts": fetched.attempts,
            "usage": fetched.usage,
            "cost_usd": fetched.cost_usd,
            **found.detail,
            "response": fetched.response,
        }
        detail = redact(detail, self._hidden())
        return Decision(found.kind, found.chosen, latency_ms=latency, detail=detail)

    # -- planning -------------------------------------------------------------------------

    def plan(self, queries: Sequence[Query]) -> Mapping[str, Any]:
        """What ``--dry-run`` prints: calls still needed after dedupe and cache, and cost."""
        needed: dict[str, Prompt] = {}
        cached: set[str] = set()
        forks: dict[str, ForkTask] = {}
        forks_cached: set[str] = set()
        for query in queries:
            prompt, key = self.prompt(query)
            if key in needed or key in cached:
                continue
            if self.cache is not None and key in self.cache:
                cached.add(key)
            else:
                needed[key] = prompt
            if self.params.execute_fork:
                fork = self._planned_fork(query, prompt, key)
                if fork is not None and self.cache is not None and fork[1] in self.cache:
                    forks_cached.add(fork[1])
                elif fork is not None:
                    forks.setdefault(fork[1], fork[0])
        est_in = sum(
            prompt_tokens(self.params.model, _prompt_text(prompt)) for prompt in needed.values()
        )
        max_out = self.params.params.get("max_tokens")
        per_call = min(EST_COMPLETION_TOKENS, max_out) if isinstance(max_out, int) else None
        est_out = len(needed) * (per_call or EST_COMPLETION_TOKENS)
        cost = estimate_cost(self.params.model, est_in, est_out) if needed else 0.0
        return {
            "model": self.params.model,
            "queries": len(queries),
            "unique_prompts": len(needed) + len(cached),
            "cached": len(cached),
            "calls": len(needed),
            "est_prompt_tokens": est_in,
            "est_completion_tokens": est_out,
            "est_cost_usd": None if cost is None else round(cost, 6),
            "max_cost_usd": self.params.max_cost_usd,
            **(
                fork_estimate(
                    self.params.model,
                    forks,
                    self.params.fork_params.get("max_tokens"),
                    len(forks_cached),
                )
                if self.params.execute_fork
                else {}
            ),
        }

    def _planned_fork(self, query: Query, prompt: Prompt, key: str) -> tuple[ForkTask, str] | None:
        """The fork a cached decision triggers; for an uncached one, its expected skill's."""
        entry: Mapping[str, Any] | None = self.cache.get(key) if self.cache is not None else None
        if entry is None:
            return self._keyed(expected_task(query, self.params.fork_system_prompt), query)
        decision = detect(entry["response"], query.listing, prompt.trigger)
        return self.fork_request(query, decision)


def _prompt_text(prompt: Prompt) -> str:
    """Everything billed as input: messages and tool schemas."""
    parts = [str(m.get("content") or "") for m in prompt.messages]
    parts.append(json.dumps(prompt.tools))
    return "\n".join(parts)


async def _all_or_none(coros: list[Coroutine[Any, Any, Decision]]) -> list[Decision]:
    """Every result in order; on the first exception the other tasks are cancelled (their
    calls are no longer wanted) and that exception is raised; so are they when the batch is."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    if not tasks:
        return []
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    except asyncio.CancelledError:  # Ctrl-C: no call of the batch is wanted any more
        for task in tasks:
            task.cancel()
        raise
    failed = next((t for t in tasks if t.done() and not t.cancelled() and t.exception()), None)
    if failed is None:
        return [t.result() for t in tasks]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    raise failed.exception()  # type: ignore[misc]
