"""The local replay loop: cells walk the timeline, each decision recorded as it finishes.

Each pass gathers what every idle cell can ask now (one query for a dependent cell, up to
``CHUNK`` for the others). A batch selector (embeddings, lexical …) answers its queries of
all cells in one ``select`` call, so it vectorises across cells. A ``Streaming`` selector
(a model behind an API) gets its queries submitted and answers them in the background:
the loop goes on with the other cells and records each model decision the moment it
arrives. A slow model therefore holds up nothing but its own cells, and a kill loses only
the calls in flight.

How the loop ends: a ``RunStopped`` (spend cap) stops new work, lets the calls already paid
for finish and be recorded, then propagates; any other exception (a model that cannot be
used, Ctrl-C) abandons the calls in flight, records what had finished, and propagates.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.dataset import LabelledRequest
from skillbench.replay._annotators import Annotator
from skillbench.replay._cell import CellRun, FactsCache, make_row
from skillbench.results import ResultRow
from skillbench.selectors import Query, Selector, Streaming
from skillbench.types import Decision, RunStopped

Record = Callable[[int, int, ResultRow], None]
"""Takes each finished row as ``record(cell_index, request_index, row)``."""

POLL_S = 0.2
"""How long the loop waits for a model decision before checking again (Ctrl-C stays prompt)."""


class _Issued(NamedTuple):
    run: CellRun
    request_index: int
    query: Query


class _Arrived(NamedTuple):
    issued: _Issued
    outcome: Decision | BaseException


class Lockstep:
    """One replay of ``runs`` over ``requests``; see the module docstring. ``keep_raw``: rows
    keep their decisions' detail whole (``keep_raw_answers``)."""

    def __init__(
        self,
        runs: Sequence[CellRun],
        requests: Sequence[LabelledRequest],
        facts: FactsCache,
        annotators: Sequence[Annotator],
        record: Record,
        *,
        keep_raw: bool = False,
    ) -> None:
        self.runs = runs
        self.keep_raw = keep_raw
        self.requests = requests
        self.facts = facts
        self.annotators = annotators
        self.record = record
        self.arrivals: queue.SimpleQueue[_Arrived] = queue.SimpleQueue()
        self.in_flight: dict[int, int] = {id(r): 0 for r in runs}
        self.streaming: dict[int, Streaming] = {}
        self.stopped: RunStopped | None = None

    @property
    def pending(self) -> int:
        return sum(self.in_flight.values())

    def run(self) -> None:
        """Replay until every cell is through (see the module docstring for how it ends)."""
        try:
            while True:
                issued = 0 if self.stopped is not None else self._pass()
                if not issued and not self.pending:
                    break
                self._collect(wait=not issued)
        except BaseException:
            for selector in self.streaming.values():
                selector.cancel()
            self._collect(wait=False, failing=True)
            raise
        if self.stopped is not None:
            raise self.stopped

    def _pass(self) -> int:
        """Issue every idle cell's next queries; returns how many were issued."""
        groups: dict[int, tuple[Selector, list[_Issued]]] = {}
        for run in self.runs:
            if self.in_flight[id(run)]:
                continue
            for i, query in run.issue(self.requests):
                groups.setdefault(id(run.selector), (run.selector, []))[1].append(
                    _Issued(run, i, query)
                )
        issued = 0
        for selector, items in groups.values():
            issued += len(items)
            if isinstance(selector, Streaming):
                self._submit(selector, items)
            else:
                self._answer(selector, items)
                self._collect(wait=False)  # model decisions that came meanwhile, to disk now
        return issued

    def _answer(self, selector: Selector, items: list[_Issued]) -> None:
        """A batch selector: all of its queries in one call, each row at its share of it."""
        start = time.perf_counter()
        decisions = selector.select([item.query for item in items])
        share = (time.perf_counter() - start) * 1000 / len(items)
        if len(decisions) != len(items):
            raise SkillbenchError(
                f"selector {items[0].run.cell.key.selector!r} returned {len(decisions)} decisions "
                f"for {len(items)} queries"
            )
        for item, decision in zip(items, decisions, strict=True):
            self._finish(item, decision, share)

    def _submit(self, selector: Streaming, items: list[_Issued]) -> None:
        self.streaming[id(selector)] = selector
        for item in items:
            self.in_flight[id(item.run)] += 1

        def deliver(i: int, outcome: Decision | BaseException) -> None:
            self.arrivals.put(_Arrived(items[i], outcome))

        try:
            selector.submit([item.query for item in items], deliver)
        except BaseException as exc:
            for item in items:
                self.in_flight[id(item.run)] -= 1
            if not isinstance(exc, RunStopped):
                raise
            self.stopped = self.stopped or exc  # the calls in flight are paid for: let them end

    def _collect(self, *, wait: bool, failing: bool = False) -> None:
        """Record the decisions that arrived (with ``wait``: at least one, unless none is
        pending); when ``failing``, record what finished and drop the rest."""
        while self.pending:
            try:
                arrived = self.arrivals.get(timeout=POLL_S) if wait else self.arrivals.get_nowait()
            except queue.Empty:
                if wait:
                    continue
                return
            wait = False
            item, outcome = arrived
            self.in_flight[id(item.run)] -= 1
            if isinstance(outcome, Decision):
                self._finish(item, outcome, None)
            elif failing:
                continue
            elif isinstance(outcome, RunStopped):
                self.stopped = self.stopped or outcome
            else:
                raise outcome

    def _finish(self, item: _Issued, decision: Decision, share: float | None) -> None:
        """Record the decision's row and let its cell move on."""
        run, i, query = item
        split: Literal["train", "test"] = "train" if query.request.id in run.train else "test"
        facts = self.facts.get(query.listing)
        retrieval = run.retrieval(query.request, self.facts)
        row = make_row(
            run.cell, query, decision, facts, split, share, retrieval, keep_raw=self.keep_raw
        )
        for annotator in self.annotators:
            row = annotator.annotate_row(row, query, decision)
        if run.gate is not None:
            row = run.gate.mark(run.cell, i, row)
        self.record(run.cell.index, i, row)
        run.finish(query.request, row)
