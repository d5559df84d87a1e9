"""Positive controls: each model or live cell is asked, by name, for skills it lists.

A cell's numbers are about its model only if a request that names a listed skill outright
comes back as an invocation of that skill; an agent that stopped listing it, a tool the
harness no longer reads, a crashing CLI all show up here first. After the replay, every
cell whose selector is ``Controllable`` gets ``per_cell`` such requests: a seeded sample
of the skills its listing shows at the first request (usage as warm-started, so every
executor and every resume asks the same), each in the agent's own explicit form. A cell
with a retrieve stage gets none: its listing is each request's own top k, and a control
has no ranking of its own. Control rows are marked ``control`` and sit after the cell's
requests; they never change usage and never enter a metric
(``skillbench.metrics.split_controls``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from skillbench.dataset import LabelledRequest
from skillbench.listing import Listing
from skillbench.replay._cell import CellRun, FactsCache, make_row
from skillbench.replay._executor import ReplayJob
from skillbench.replay._experiment import Experiment
from skillbench.replay._results import StepKey
from skillbench.replay._timeline import listing_at
from skillbench.results import CellFields, ResultRow, RowKey
from skillbench.selectors import Controllable, Query, Selector

CONTROL_ID = "control:"
"""Prefix of a control's request id (then the skill's name)."""


class ControlStep(NamedTuple):
    """One control decision to make: its cell, its place in the results and its query."""

    run: CellRun
    step: StepKey
    query: Query

    @property
    def row_key(self) -> RowKey:
        return RowKey(self.run.cell.key, self.run.cell.repeat, self.query.request.id)


def control_steps(
    experiment: Experiment, runs: Sequence[CellRun], requests: Sequence[LabelledRequest]
) -> list[ControlStep]:
    """Every control decision of the run, cell by cell (none without requests)."""
    per_cell = experiment.controls.per_cell
    if per_cell == 0 or not requests:
        return []
    trackers = experiment.usage.trackers()
    out: list[ControlStep] = []
    for run in runs:
        if not isinstance(run.selector, Controllable) or run.retrieved is not None:
            continue
        shown = listing_at(run.plan, trackers(run.cell.key.half_life), requests[0])
        sample = _sample(run, shown.full, per_cell, experiment.seed)
        for j, (name, text) in enumerate(sample):
            request = LabelledRequest(
                f"{CONTROL_ID}{name}", text, (name,), requests[0].at, tags=("control",)
            )
            query = Query(request, shown.full, run.cell.repeat, run.cell.label, shown.scores)
            out.append(ControlStep(run, StepKey(run.cell.index, len(requests) + j), query))
    return out


def _sample(run: CellRun, listing: Listing, k: int, seed: int) -> list[tuple[str, str]]:
    """A seeded sample of ``k`` shown skills the selector can ask for, in listing order,
    with each one's control request."""
    assert isinstance(run.selector, Controllable)
    candidates: dict[str, str] = {}
    for entry in listing.entries:
        if entry.shown and entry.name not in candidates:
            text = run.selector.control_request(entry)
            if text is not None:
                candidates[entry.name] = text
    rng = random.Random(f"{seed}/{run.cell.key.path}")
    picked = set(rng.sample(sorted(candidates), min(k, len(candidates))))
    return [(name, text) for name, text in candidates.items() if name in picked]


def kept_controls(
    steps: Iterable[ControlStep], kept: Iterable[ResultRow]
) -> dict[StepKey, ResultRow]:
    """The control rows a ``--resume`` keeps, by their place in the results."""
    found = {r.row_key: r for r in kept if r.control}
    return {s.step: found[s.row_key] for s in steps if s.row_key in found}


def ask_controls(job: ReplayJob, steps: Sequence[ControlStep]) -> None:
    """Ask every control not yet answered, each selector once for all its cells' controls,
    and record the rows (marked ``control``)."""
    groups: dict[int, tuple[Selector, list[ControlStep]]] = {}
    for step in steps:
        if step.step not in job.rows:
            groups.setdefault(id(step.run.selector), (step.run.selector, []))[1].append(step)
    if job.observer is not None and groups:
        job.observer.phase("positive controls", sum(len(g) for _, g in groups.values()))
    facts = FactsCache(job.experiment.token_model)
    for selector, group in groups.values():
        start = time.perf_counter()
        decisions = selector.select([s.query for s in group])
        share = (time.perf_counter() - start) * 1000 / len(group)
        for item, decision in zip(group, decisions, strict=True):
            query = item.query
            listing = facts.get(query.listing)
            keep = job.experiment.keep_raw_answers
            row = make_row(item.run.cell, query, decision, listing, "test", share, keep_raw=keep)
            for annotator in job.annotators:
                row = annotator.annotate_row(row, query, decision)
            where = item.step
            job.record(where.cell, where.request, row.model_copy(update={"control": True}))


def failed_controls(cells: Iterable[CellFields]) -> str | None:
    """Why the run is incomplete on its controls (None when every cell passed)."""
    failed = [(c.path, c.controls.reason) for c in cells if c.controls and c.controls.failed]
    if not failed:
        return None
    path, reason = failed[0]
    return (
        f"{len(failed)} cell(s) failed their positive controls; first ({path}): {reason} "
        "(--allow-failed-controls accepts the run)"
    )
