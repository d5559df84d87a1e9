"""Worker processes that make model calls, so litellm's CPU per call is no longer the ceiling.

litellm spends milliseconds of CPU on every call (building the request, parsing and pricing
the answer), and one process holds one GIL: past some tens of calls per second the event loop,
not the endpoint, sets the pace. A ``WorkerPool`` runs N worker processes, each with its own
event loop and litellm (and its own Router, given a ``router`` section). The parent keeps
everything that decides or pays: the endpoint's semaphore (so ``-j`` stays the total), the
spend cap reservation, the retry loop, the cache, the in-flight dedupe and the reading of
answers; a worker makes one try of one request and sends back an ``CallAttempt``. Results
therefore do not depend on the number of processes.

Workers are fresh interpreters (``python -c``), not ``multiprocessing`` children: they never
re-run the parent's main script, whatever it is. They ignore Ctrl-C (the parent cancels its
calls and exits) and exit on their own when the parent's end of their pipe closes, also when
the parent is killed.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, NamedTuple

import skillbench
from skillbench._errors import SkillbenchError
from skillbench.selectors._litellm._client import CallAttempt, RetryPolicy, attempt
from skillbench.selectors._litellm._router import RouterSpec, build_router


class RouterRef(NamedTuple):
    """A Router for workers to build: the spec (already their share) and its group name."""

    spec: RouterSpec
    group: str


@dataclass
class _Worker:
    """The parent's side of one process: its pipes and the calls it still owes."""

    process: subprocess.Popen[bytes]
    name: str
    requests: Connection
    replies: Connection
    pending: dict[int, asyncio.Future[CallAttempt]] = field(default_factory=dict)
    alive: bool = True


class WorkerPool:
    """N processes making tries of chat requests; ``send`` is a ``Sender`` for ``call_model``.

    Replies are read by the event loop the calls run on (the selectors' one loop), when a
    worker's pipe is readable: no thread, no hand-over between threads per call.
    """

    def __init__(self, processes: int, router: RouterRef | None = None) -> None:
        self._ids = itertools.count()
        self._workers = [_start(f"skillbench-llm-{i}") for i in range(processes)]
        for worker in self._workers:
            worker.requests.send(router)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False

    async def send(
        self, request: Mapping[str, Any], policy: RetryPolicy, hidden: list[str]
    ) -> CallAttempt:
        """One try of ``request`` by the worker with the fewest calls in flight."""
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
            for w in self._workers:
                loop.add_reader(w.replies.fileno(), self._collect, w)
        worker = min(self._workers, key=lambda w: (not w.alive, len(w.pending)))
        if not worker.alive:
            raise SkillbenchError(_died(worker))
        call = next(self._ids)
        future: asyncio.Future[CallAttempt] = loop.create_future()
        worker.pending[call] = future
        try:
            _post(worker, ("call", call, dict(request), policy, hidden))
            return await future
        except asyncio.CancelledError:
            _post(worker, ("cancel", call))
            raise
        finally:
            worker.pending.pop(call, None)

    def close(self) -> None:
        """Stop every worker (closing its pipe ends it; kill the ones that linger)."""
        self._closing = True
        for worker in self._workers:
            worker.requests.close()
        for worker in self._workers:
            try:
                worker.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                worker.process.kill()

    def _collect(self, worker: _Worker) -> None:
        """Hand each waiting reply to its call; a dead worker fails all it still owed."""
        try:
            while worker.replies.poll():
                call, outcome = worker.replies.recv()
                future = worker.pending.get(call)
                if future is not None:
                    _settle(future, outcome)
        except (EOFError, OSError):
            assert self._loop is not None
            self._loop.remove_reader(worker.replies.fileno())
            worker.alive = False
            # Closing: the calls still owed were abandoned (Ctrl-C, exit); they end cancelled.
            dead = None if self._closing else SkillbenchError(_died(worker))
            for future in list(worker.pending.values()):
                _settle(future, dead)


def _post(worker: _Worker, message: tuple[Any, ...]) -> None:
    # A worker that is gone cannot take it; its pipe's end fails what it owed.
    with contextlib.suppress(OSError, ValueError):
        worker.requests.send(message)


def _died(worker: _Worker) -> str:
    code = worker.process.poll()
    status = "" if code is None else f" (exit status {code}; its error, if any, is above)"
    return f"model worker process {worker.name} exited{status}"


def _start(name: str) -> _Worker:
    """A worker process running ``serve``, with this skillbench first on its path."""
    to_child, from_parent = os.pipe()
    to_parent, from_child = os.pipe()
    env = dict(os.environ)
    root = str(Path(skillbench.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))
    code = f"from {__name__} import serve; serve({to_child}, {from_child})"
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        pass_fds=(to_child, from_child),
        env=env,
        stdin=subprocess.DEVNULL,
    )
    os.close(to_child)
    os.close(from_child)
    requests = Connection(from_parent, readable=False)
    return _Worker(process, name, requests, Connection(to_parent, writable=False))


def _settle(
    future: asyncio.Future[CallAttempt], outcome: CallAttempt | BaseException | None
) -> None:
    """Resolve ``future``: a reply, a failure, or (``None``) a cancellation."""
    if future.done():
        return
    if outcome is None:
        future.cancel()
    elif isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


def serve(requests_fd: int, replies_fd: int) -> None:
    """A worker's life: read its router, then calls and cancels; run them on its own loop
    and send the replies back. One thread: the loop reads the pipe when it is readable."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    requests = Connection(requests_fd, writable=False)
    replies = Connection(replies_fd, readable=False)
    router: RouterRef | None = requests.recv()
    loop = asyncio.new_event_loop()
    route = None if router is None else build_router(router.spec, router.group)
    tasks: dict[int, asyncio.Task[None]] = {}

    async def run(
        call: int, request: dict[str, Any], policy: RetryPolicy, hidden: list[str]
    ) -> None:
        try:
            replies.send((call, await attempt(request, policy, hidden, route)))
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a bug, not a model error: the parent raises it
            replies.send((call, RuntimeError(f"{type(exc).__name__}: {exc}")))
        finally:
            tasks.pop(call, None)

    def readable() -> None:
        while requests.poll():
            try:
                message = requests.recv()
            except (EOFError, OSError):  # the parent is gone
                os._exit(0)
            if message[0] == "call":
                tasks[message[1]] = loop.create_task(run(*message[1:]))
            elif message[1] in tasks:
                tasks[message[1]].cancel()

    loop.add_reader(requests.fileno(), readable)
    loop.run_forever()


_pools: dict[tuple[int, RouterRef | None], WorkerPool] = {}
_pools_lock = threading.Lock()


def worker_pool(processes: int, router: RouterRef | None = None) -> WorkerPool:
    """The process-wide pool of ``processes`` workers (with this router), started once."""
    with _pools_lock:
        key = (processes, router)
        if key not in _pools:
            _pools[key] = WorkerPool(processes, router)
        return _pools[key]


@atexit.register
def close_pools() -> None:
    """Stop every pool's workers (at exit; tests call it to start from none)."""
    with _pools_lock:
        for pool in _pools.values():
            pool.close()
        _pools.clear()
