"""One cell's walk through the timeline: its listings, its queries and its results rows.

A cell is **dependent** when a decision can change a later listing of that cell: it records
what the selector chose *and* usage scores reach its listing (``ListingPlan.uses_scores``).
A dependent cell offers one query per round and waits for its decision; every other cell's
listings are known in advance, so it offers up to ``CHUNK`` queries per round.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from skillbench._excerpt import bounded_detail
from skillbench.dataset import LabelledRequest
from skillbench.listing import Listing, ListingPlan
from skillbench.replay._adaptive import RepeatGate
from skillbench.replay._retrieve import Retrieval, TopK, retrieval_fields
from skillbench.replay._timeline import listing_at, recorded_use
from skillbench.replay._types import Cell
from skillbench.results import ResultRow
from skillbench.selectors import Calibratable, Calibration, Query, Selector
from skillbench.tokens import count_tokens
from skillbench.types import CELL_FIELDS, Decision, classify
from skillbench.usage import UsageTracker

V = TypeVar("V")

CHUNK = 256
"""Queries an independent cell offers per round: large batches, bounded loss on a kill."""
KEPT = 4096
"""Distinct listings remembered (per plan, and their facts per run). A usage-ordered listing
of a big catalog changes at nearly every request; cells sharing a plan run within a round of
each other, so a bounded memory keeps every hit and drops what will not come back."""


class Recent(OrderedDict[str, V]):
    """A dict that keeps its ``KEPT`` most recently used keys."""

    def setdefault(self, key: str, default: V) -> V:  # type: ignore[override]
        found = self.get(key)
        if found is not None:
            self.move_to_end(key)
            return found
        self[key] = default
        if len(self) > KEPT:
            self.popitem(last=False)
        return default


@dataclass(frozen=True, slots=True)
class ListingFacts:
    """What rows need from a listing, computed once per distinct listing text.

    ``shown`` holds the name of every listed entry in listing order: a profile that lists
    two skills of one name shows both, and a row's ``gold_position`` indexes those entries.
    ``positions`` maps each shown name to its first entry.
    """

    shown: tuple[str, ...]
    positions: Mapping[str, int]
    chars: int
    tokens: int


class FactsCache:
    """``ListingFacts`` by listing text: token counting is the costly part, done once."""

    def __init__(self, token_model: str) -> None:
        self.token_model = token_model
        self._by_text: Recent[ListingFacts] = Recent()

    def get(self, listing: Listing) -> ListingFacts:
        facts = self._by_text.get(listing.text)
        if facts is None:
            names = listing.shown_names
            positions: dict[str, int] = {}
            for i, name in enumerate(names):
                positions.setdefault(name, i)
            facts = ListingFacts(
                names,
                positions,
                len(listing.text),
                count_tokens(listing.text, self.token_model),
            )
        return self._by_text.setdefault(listing.text, facts)


@dataclass
class CellRun:
    """One cell's progress through the timeline.

    ``done`` holds rows kept by ``--resume`` (by request id); ``seen`` interns listings by
    text and is shared by the cells of one plan, so selectors' per-listing work (entry
    records, indexes) happens once per distinct listing. ``retrieved`` is the selector's
    retrieve stage (each request's top k), whose listing shows those skills only; the full
    listing of each issued request waits in ``full`` for its row. ``span`` (request
    indices) leaves the other requests to other workers: an independent cell passes over
    them as over kept rows, asking nothing. ``gate`` (adaptive repeats) holds a repeat back
    until the earlier repeats of its request are in, and skips it once they settle it.
    """

    cell: Cell
    plan: ListingPlan
    selector: Selector
    tracker: UsageTracker
    record_label: bool
    done: dict[str, ResultRow]
    seen: Recent[Listing] = field(default_factory=Recent)
    train: frozenset[str] = frozenset()
    retrieved: TopK | None = None
    span: range | None = None
    full: dict[str, Listing] = field(default_factory=dict)
    gate: RepeatGate | None = None
    pos: int = 0
    waiting: bool = False

    @property
    def dependent(self) -> bool:
        return not self.record_label and self.plan.uses_scores

    def query(self, request: LabelledRequest) -> Query:
        """The query of ``request``: the listing this cell shows at ``request.at``, given
        the usage recorded so far (with a retrieve stage: of the request's top k; the full
        one is kept in ``full``), and the usage scores it was rendered under."""
        top = None if self.retrieved is None else self.retrieved[request.id]
        shown = listing_at(self.plan, self.tracker, request, top)
        full = self._interned(shown.full)
        listing = full
        if self.retrieved is not None:
            self.full[request.id] = full
            listing = self._interned(shown.listing)
        return Query(request, listing, self.cell.repeat, self.cell.label, shown.scores)

    def _interned(self, listing: Listing) -> Listing:
        return self.seen.setdefault(listing.text, listing)

    def retrieval(self, request: LabelledRequest, facts: FactsCache) -> Retrieval | None:
        """The row fields of the retrieve stage for an issued ``request`` (none without one)."""
        if self.retrieved is None:
            return None
        full = facts.get(self.full.pop(request.id)).tokens
        return retrieval_fields(self.retrieved[request.id], self.plan, request, full)

    def issue(self, requests: Sequence[LabelledRequest]) -> list[tuple[int, Query]]:
        """The next queries this cell can ask now (replaying resumed rows on the way)."""
        out: list[tuple[int, Query]] = []
        limit = 1 if self.dependent else CHUNK
        while not self.waiting and self.pos < len(requests) and len(out) < limit:
            i, request = self.pos, requests[self.pos]
            row = self.done.get(request.id)
            if row is None and (self.span is None or i in self.span):
                gate = "ask" if self.gate is None else self.gate.check(self.cell, i, request)
                if gate == "wait":
                    break
                if gate == "ask":
                    out.append((i, self.query(request)))
                    self.waiting = self.dependent
            if self.record_label:
                self._record(request, None)
            elif row is not None and self.dependent:
                self._record(request, row)
            self.pos += 1
        return out

    def finish(self, request: LabelledRequest, row: ResultRow) -> None:
        """Take the decision on ``request`` (recorded as usage when the cell is dependent)."""
        if self.dependent:
            self._record(request, row)
            self.waiting = False

    def calibrate(self, requests: Sequence[LabelledRequest]) -> Calibration:
        """Fit the calibratable selector on the train split, with listings as the warm-start
        history shows them (the replay's own history does not exist yet)."""
        assert isinstance(self.selector, Calibratable)
        queries = [self.query(r) for r in requests if r.id in self.train]
        return self.selector.calibrate(queries)

    def _record(self, request: LabelledRequest, row: ResultRow | None) -> None:
        used = recorded_use(request, row, record_label=self.record_label)
        if used is not None:
            assert request.at is not None
            self.tracker.record(used, request.at)


def make_row(
    cell: Cell,
    query: Query,
    decision: Decision,
    facts: ListingFacts,
    split: Literal["train", "test"],
    latency: float | None,
    retrieval: Retrieval | None = None,
    *,
    keep_raw: bool = False,
) -> ResultRow:
    """The results row of one decision (docs/architecture.md, "Results row").

    ``latency_ms`` is the decision's own (a model call's, queueing excluded), else
    ``latency``: the decision's share of its batch. ``retrieval`` is the cell's retrieve
    stage's pick, when it has one. The decision's ``detail`` is kept bounded (long answers
    as excerpts, ``skillbench._excerpt``) unless ``keep_raw``.
    """
    request = query.request
    outcome = classify(request.expected, decision, facts.positions)
    shown_expected = [facts.positions[n] for n in request.expected if n in facts.positions]
    score = decision.score
    return ResultRow(
        **{name: getattr(cell.key, name) for name in CELL_FIELDS},
        repeat=cell.repeat,
        request_id=request.id,
        text=request.text,
        expected=list(request.expected),
        chosen=decision.chosen if decision.kind == "invoke" else None,
        outcome=outcome,
        visible=bool(shown_expected) if request.expected else None,
        gold_position=min(shown_expected) if shown_expected else None,
        listing_chars=facts.chars,
        listing_tokens=facts.tokens,
        shown=len(facts.shown),
        latency_ms=round(
            decision.latency_ms if decision.latency_ms is not None else latency or 0.0, 3
        ),
        at=request.at.isoformat() if request.at else None,
        session=request.session,
        turn=request.turn,
        tags=list(request.tags),
        split=split,
        score=None if score is None or not math.isfinite(score) else float(score),
        detail=dict(decision.detail) if keep_raw else bounded_detail(decision.detail),
        **({} if retrieval is None else retrieval._asdict()),
    )
