"""Live decisions through a warm agent process, where one serves a run of requests.

Starting the agent's CLI costs far more than the model call, and an agent whose record says
``Live.warm`` can take request after request in one process, each a fresh conversation
(``skillbench.agents.warm_agent``). The installed skills, the budget setting and the seeded
usage belong to the process, so only consecutive queries of a batch that share all three (a
``Setting``) share a process: one per such run and worker. Each request gets its own
``Bridge``, so its decision, listing check, cost and the spend cap are those of a cold turn.
A warm process that fails (times out, exits) makes that request an ``error`` decision and the
rest of its run goes cold, one process per decision.

An agent that keeps its own usage history (``Launch.keeps_usage``) counts each skill the model
calls; where the budget cuts the listing, that count would change the next request's listing.
An agent whose warm process reads its history again per request (``Live.rereads_usage``) gets
each request's seeded usage written just before it, so requests of any usage share one
process; for any other such agent, cut listings stay cold.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Sequence
from contextlib import ExitStack
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.agents import (
    Bridge,
    Recorded,
    Recorder,
    Reply,
    Workspace,
    install_notes,
    warm_agent,
)
from skillbench.catalog import SourceSpec
from skillbench.listing import Listing
from skillbench.selectors._types import Decision, Query

if TYPE_CHECKING:
    from skillbench.selectors._agent import AgentSelector

CUT = frozenset({"truncated", "name_only", "dropped"})
"""Entry statuses that show the budget at work."""


class Setting(NamedTuple):
    """What an agent process lists from: requests sharing one can share the process."""

    sources: tuple[SourceSpec, ...]
    skipped: int
    env: tuple[tuple[str, str], ...]
    usage: tuple[tuple[str, int], ...]


class WarmRun(NamedTuple):
    """Consecutive queries (their batch positions) one process answers; ``warm`` False:
    one cold process per query."""

    positions: tuple[int, ...]
    setting: Setting
    warm: bool


def runs(
    settings: Sequence[Setting],
    listings: Sequence[Listing],
    workers: int,
    warm: bool,
    counts_uses: bool,
    rereads_usage: bool = False,
) -> list[WarmRun]:
    """The batch cut into runs of one setting (its usage aside when the agent
    ``rereads_usage``), each split in up to ``workers`` parts of consecutive queries; a part
    of one query is cold (unless the agent rereads usage: its cells send one request at a
    time to a pooled process), and so is every part unless ``warm`` (and, for an agent that
    ``counts_uses`` and does not reread it, every listing of the run shows each description
    in full)."""
    cut: list[WarmRun] = []
    start = 0
    shared = (lambda s: s._replace(usage=())) if rereads_usage else (lambda s: s)
    for setting, group in groupby(settings, key=shared):
        size = len(list(group))
        positions = range(start, start + size)
        start += size
        stable = warm and (
            rereads_usage or not (counts_uses and any(_cut(listings[p]) for p in positions))
        )
        parts = min(workers, size) if stable else size
        for k in range(parts):
            part = tuple(positions[k * size // parts : (k + 1) * size // parts])
            cut.append(WarmRun(part, setting, stable and (len(part) > 1 or rereads_usage)))
    return cut


def _cut(listing: Listing) -> bool:
    return any(entry.status in CUT for entry in listing.entries)


class _Switch:
    """The recorder's responder: the bridge of the request now running."""

    def __init__(self) -> None:
        self.bridge: Bridge | None = None

    def __call__(self, recorded: Recorded) -> Reply:
        assert self.bridge is not None
        return self.bridge(recorded)


class _PooledProcess:
    """A warm process with its workspace, loopback endpoint and install notes, kept
    between batches for the next run of its setting."""

    def __init__(self, selector: AgentSelector, setting: Setting) -> None:
        driver = selector.driver
        self._stack = ExitStack()
        try:
            tmp = self._stack.enter_context(tempfile.TemporaryDirectory(prefix="skillbench-agent-"))
            self.root = Path(tmp).resolve()
            self.workspace = Workspace(self.root / "home", self.root / "project")
            for path in self.workspace:
                path.mkdir()
            with install_notes() as notes:
                args = driver.lay_out(setting.sources, self.workspace)
            self.notes = list(notes)
            driver.configure(self.workspace, {}, dict(setting.usage))
            self.switch = _Switch()
            recorder = self._stack.enter_context(Recorder(self.switch))
            self.process = self._stack.enter_context(
                warm_agent(
                    driver.name,
                    selector.executable,
                    self.workspace,
                    recorder,
                    selector.params.timeout,
                    dict(setting.env),
                    args,
                )
            )
        except BaseException:
            self._stack.close()
            raise

    def close(self) -> None:
        self._stack.close()


class WarmPool:
    """Idle warm processes by setting, at most ``limit`` of them (the oldest ends first): a
    process outlives its batch, so a cell whose every request waits for the decision before
    it (a listing that follows usage) still asks them all of one process."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._idle: list[tuple[Setting, _PooledProcess]] = []
        self._lock = threading.Lock()

    def take(self, setting: Setting) -> _PooledProcess | None:
        with self._lock:
            for k, (held, slot) in enumerate(self._idle):
                if held == setting:
                    del self._idle[k]
                    return slot
        return None

    def give(self, setting: Setting, slot: _PooledProcess) -> None:
        with self._lock:
            self._idle.append((setting, slot))
            ended = self._idle[: -self.limit]
            del self._idle[: -self.limit]
        for _, old in ended:
            old.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for _, slot in idle:
            slot.close()


def decide_warm(selector: AgentSelector, run: WarmRun, queries: Sequence[Query]) -> list[Decision]:
    """The decisions of ``queries`` (one run), through one warm process while it lasts (an
    idle one of the run's setting, else a new one), given back to the pool after."""
    setting = run.setting
    driver = selector.driver
    rereads = driver.spec.live.rereads_usage and driver.spec.launch.keeps_usage
    decisions: list[Decision] = []
    slot = selector.pool.take(setting)
    try:
        if slot is None:
            slot = _PooledProcess(selector, setting)
        for query in queries:
            selector._check_cap()
            if rereads:
                driver.write_usage(slot.workspace, dict(selector._setting(query).usage))
            bridge = slot.switch.bridge = selector._bridge(slot.root, query.repeat)
            start = time.perf_counter()
            requests = slot.process.ask(query.request.text)
            seconds = time.perf_counter() - start
            decisions.append(selector._read(query, bridge, requests, setting, slot.notes, seconds))
    except (SkillbenchError, OSError) as exc:
        decisions.append(selector._failed(f"warm process: {exc}"))
        if slot is not None:
            slot.close()
        slot = None
    finally:
        if slot is not None and len(decisions) < len(queries):
            slot.close()
        elif slot is not None:
            selector.pool.give(setting, slot)
    return decisions + [selector._decide(query) for query in queries[len(decisions) :]]
