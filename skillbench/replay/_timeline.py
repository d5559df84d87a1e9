"""The listing timeline: what a cell shows at each request, and the usage recorded after it.

The engine and ``--dry-run`` render through ``listing_at``; the viewer and ``report --labels``
walk a finished run with ``replayed_listings``, which records usage with ``recorded_use`` as
the engine does, so a listing they show is the one the engine showed, retrieve stage included.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import NamedTuple

from skillbench.dataset import LabelledRequest
from skillbench.listing import Listing, ListingPlan
from skillbench.replay._experiment import Experiment
from skillbench.replay._grid import Grid
from skillbench.replay._retrieve import RetrieveStages
from skillbench.replay._types import Cell
from skillbench.results import ResultRow, RowKey
from skillbench.types import NOT_RUN
from skillbench.usage import UsageTracker


class Shown(NamedTuple):
    """A cell's listings at one request.

    Attributes:
        full: the listing of every listable skill.
        listing: what the selector sees: ``full``, or with a retrieve stage the listing of
            the request's top k only.
        scores: the usage scores both were rendered under (empty when the plan reads none).
    """

    full: Listing
    listing: Listing
    scores: Mapping[str, float] = {}


def listing_at(
    plan: ListingPlan,
    tracker: UsageTracker,
    request: LabelledRequest,
    top: Collection[int] | None = None,
) -> Shown:
    """The listings ``plan`` shows at ``request.at`` under the usage ``tracker`` holds now;
    ``top`` is the retrieve stage's pick for the request (catalog indices), if any."""
    scores: Mapping[str, float] = {}
    if plan.uses_scores and request.at is not None:
        scores = tracker.ranked(request.at)
    full = plan.render(scores)
    return Shown(full, full if top is None else plan.render(scores, only=top), scores)


def recorded_use(
    request: LabelledRequest, row: ResultRow | None, *, record_label: bool
) -> str | None:
    """The skill a cell's tracker records after ``request`` (None: nothing).

    With ``usage.record: label`` that is the expected skill; otherwise the invoked one, when
    the invocation ran (a hallucinated, malformed or errored answer ran nothing).
    """
    if record_label:
        return request.expected[0] if request.expected else None
    if row is None or row.chosen is None or row.outcome in NOT_RUN:
        return None
    return row.chosen


class TimelineStep(NamedTuple):
    """One decision of a finished run, with the listings its cell showed.

    Attributes:
        cell: the grid cell.
        request: the request, as the run labelled it.
        row: its results row (None: the run has none, e.g. it was stopped).
        shown: the cell's listings at the request.
        usage: the cell's tracker as the request found it (read before the next step).
    """

    cell: Cell
    request: LabelledRequest
    row: ResultRow | None
    shown: Shown
    usage: UsageTracker


def replayed_listings(
    experiment: Experiment, grid: Grid, rows: Mapping[RowKey, ResultRow]
) -> Iterator[TimelineStep]:
    """Every cell's listings at every request of a finished run, cell by cell in time order,
    with the usage history rebuilt from ``rows`` (the choices) or the labels, as the run
    recorded it; retrieve stages rank the catalog again. ``rows`` are keyed by ``RowKey``.

    Raises:
        SkillbenchError: a retrieve stage that cannot rank (its model is gone, say).
    """
    env = experiment.selector_env(max_concurrency=1, quiet=True)
    stages = RetrieveStages(experiment.selectors, env, grid.requests)
    tracker = experiment.usage.trackers()
    record_label = experiment.usage.record_label
    for cell in grid.cells:
        plan = grid.plans[cell]
        usage = tracker(cell.key.half_life)
        top = stages.top(cell.key.selector, plan)
        for request in grid.requests:
            row = rows.get(RowKey(cell.key, cell.repeat, request.id))
            shown = listing_at(plan, usage, request, None if top is None else top[request.id])
            yield TimelineStep(cell, request, row, shown, usage)
            used = recorded_use(request, row, record_label=record_label)
            if used is not None and request.at is not None:
                usage.record(used, request.at)
