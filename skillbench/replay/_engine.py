"""The replay engine: every grid cell replays the requests in time order, in lockstep.

Per step a cell takes its usage scores at the request's time, renders its listing, asks its
selector, classifies the decision and records the invoked skill (or, with
``usage.record: label``, the expected one) into its own usage tracker.

A cell is **dependent** when a decision can change a later listing of that cell: it records
what the selector chose *and* usage scores reach its listing (the ``usage`` ordering, or a
renderer whose drop rule reads scores). A dependent cell offers one query per round and waits
for its decision. Every other cell is **independent**: its listings are known in advance, so
it offers up to ``CHUNK`` queries per round. Each round calls each selector once with the
queries of all cells using it, so embedding selectors vectorise across cells and model
selectors can run many calls concurrently.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from skillbench._errors import SkillbenchError
from skillbench.dataset import LabelledRequest
from skillbench.listing import Listing, ListingPlan
from skillbench.metrics import classify
from skillbench.replay._config import RunConfig
from skillbench.replay._grid import (
    Grid,
    SelectorPool,
    build_grid,
    default_cache_dir,
    scores_matter,
    train_split,
)
from skillbench.replay._results import (
    CONFIG_COPY,
    MANIFEST,
    RESULTS,
    ResultsWriter,
    manifest,
    now_iso,
    resumable_rows,
    row_key,
    write_json,
    write_rows,
)
from skillbench.replay._summary import summarize
from skillbench.replay._types import ANNOTATORS, Annotator, Cell, RunStatus, RunStopped
from skillbench.selectors import (
    Calibratable,
    Decision,
    Preparable,
    Query,
    Selector,
    SelectorEnv,
)
from skillbench.tokens import count_tokens
from skillbench.usage import UsageTracker

CHUNK = 256
"""Queries an independent cell offers per round: large batches, bounded loss on a kill."""

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each decision."""


@dataclass(frozen=True)
class RunResult:
    """What a run produced: where, how it ended and the summary cells."""

    run_dir: Path
    status: RunStatus
    reason: str | None
    cells: list[dict[str, Any]]
    decisions: int
    resumed: int


@dataclass(frozen=True, slots=True)
class _Facts:
    """What rows need from a listing, computed once per distinct listing text."""

    shown: frozenset[str]
    positions: Mapping[str, int]
    chars: int
    tokens: int


class _FactsCache:
    def __init__(self, token_model: str) -> None:
        self.token_model = token_model
        self._by_text: dict[str, _Facts] = {}

    def get(self, listing: Listing) -> _Facts:
        facts = self._by_text.get(listing.text)
        if facts is None:
            names = listing.shown_names
            positions: dict[str, int] = {}
            for i, name in enumerate(names):
                positions.setdefault(name, i)
            facts = _Facts(
                frozenset(names),
                positions,
                len(listing.text),
                count_tokens(listing.text, self.token_model),
            )
            self._by_text[listing.text] = facts
        return facts


@dataclass
class _CellRun:
    """One cell's progress through the timeline."""

    cell: Cell
    plan: ListingPlan
    selector: Selector
    tracker: UsageTracker
    record_label: bool
    dependent: bool
    done: dict[str, dict[str, Any]]
    train: frozenset[str] = frozenset()
    pos: int = 0
    waiting: bool = False
    fixed: Listing | None = None
    seen: dict[str, Listing] = field(default_factory=dict)
    _matter: bool = field(default=True, init=False)

    def __post_init__(self) -> None:
        self._matter = scores_matter(self.plan)

    def listing_at(self, request: LabelledRequest) -> Listing:
        if not self._matter:
            if self.fixed is None:
                listing = self.plan.render({})
                self.fixed = self.seen.setdefault(listing.text, listing)
            return self.fixed
        assert request.at is not None
        listing = self.plan.render(self.tracker.scores(request.at))
        # Within a plan the text decides the listing; reusing the first object lets
        # selectors' per-listing work (entry records, indexes) happen once.
        return self.seen.setdefault(listing.text, listing)

    def issue(self, requests: Sequence[LabelledRequest]) -> list[tuple[int, Query]]:
        """The next queries this cell can ask now (replaying resumed rows on the way)."""
        out: list[tuple[int, Query]] = []
        limit = 1 if self.dependent else CHUNK
        while not self.waiting and self.pos < len(requests) and len(out) < limit:
            i, request = self.pos, requests[self.pos]
            row = self.done.get(request.id)
            if row is None:
                query = Query(request, self.listing_at(request), self.cell.repeat, self.cell.label)
                out.append((i, query))
                self.waiting = self.dependent
            if self.record_label:
                if request.expected:
                    assert request.at is not None
                    self.tracker.record(request.expected[0], request.at)
            elif row is not None and self.dependent:
                self._record_chosen(request, row)
            self.pos += 1
        return out

    def finish(self, request: LabelledRequest, row: Mapping[str, Any]) -> None:
        if self.dependent:
            self._record_chosen(request, row)
            self.waiting = False

    def _record_chosen(self, request: LabelledRequest, row: Mapping[str, Any]) -> None:
        """An agent's tracker records an invocation that ran: a shown skill was invoked."""
        if row.get("chosen") is not None and row.get("outcome") not in (
            "hallucinated",
            "malformed",
            "error",
        ):
            assert request.at is not None
            self.tracker.record(row["chosen"], request.at)


def _row(
    cell: Cell, query: Query, decision: Decision, facts: _Facts, split: str, latency: float
) -> dict[str, Any]:
    request = query.request
    outcome = classify(request.expected, decision, facts.shown)
    shown_expected = [facts.positions[n] for n in request.expected if n in facts.positions]
    score = decision.score
    return {
        **cell.fields(),
        "repeat": cell.repeat,
        "request_id": request.id,
        "expected": list(request.expected),
        "chosen": decision.chosen if decision.kind == "invoke" else None,
        "outcome": outcome,
        "visible": bool(shown_expected) if request.expected else None,
        "gold_position": min(shown_expected) if shown_expected else None,
        "listing_chars": facts.chars,
        "listing_tokens": facts.tokens,
        "shown": len(facts.shown),
        "latency_ms": round(decision.latency_ms or latency, 3),
        "at": request.at.isoformat() if request.at else None,
        "session": request.session,
        "turn": request.turn,
        "tags": list(request.tags),
        "split": split,
        "score": None if score is None or not math.isfinite(score) else float(score),
        "detail": dict(decision.detail),
        "inline_tokens": None,
        "fork_tokens": None,
        "declared_tokens": None,
    }


def _trackers(config: RunConfig) -> Callable[[str], UsageTracker]:
    """A fresh tracker per cell, warm-started from the configured usage file."""
    usage = config.usage
    loaded: dict[str, UsageTracker] = {}

    def make(half_life: str) -> UsageTracker:
        if half_life not in loaded:
            if usage.warm_start:
                path = config.resolve(usage.warm_start)
                loaded[half_life] = UsageTracker.load(path, half_life, usage.floor, usage.model)
            else:
                loaded[half_life] = UsageTracker(half_life, usage.floor, usage.model)
        return loaded[half_life].copy()

    return make


def _calibrate(
    run: _CellRun, requests: Sequence[LabelledRequest], train: frozenset[str]
) -> Mapping[str, Any]:
    """Fit a calibratable selector on the train split, with listings as the warm-start
    history shows them (the replay's own history does not exist yet)."""
    queries = [
        Query(r, run.listing_at(r), run.cell.repeat, run.cell.label)
        for r in requests
        if r.id in train
    ]
    assert isinstance(run.selector, Calibratable)
    return dict(run.selector.calibrate(queries))


def _annotators(config: RunConfig, requests: Sequence[LabelledRequest]) -> list[Annotator]:
    import importlib

    try:
        importlib.import_module("skillbench.cost")
    except ModuleNotFoundError as exc:
        if exc.name != "skillbench.cost":
            raise
    built = (ANNOTATORS.get(name)(config, requests) for name in ANNOTATORS)
    return [a for a in built if a is not None]


def selector_env(config: RunConfig, *, max_concurrency: int, quiet: bool) -> SelectorEnv:
    base = config.path.parent if config.path else Path.cwd()
    return SelectorEnv(default_cache_dir(), config.seed, base, max_concurrency, quiet)


def run_experiment(
    config: RunConfig,
    *,
    output: str | Path | None = None,
    limit: int | None = None,
    resume: bool = False,
    max_concurrency: int = 8,
    quiet: bool = True,
    progress: Progress | None = None,
) -> RunResult:
    """Replay ``config``'s grid and write the run directory.

    Args:
        config: the validated run config.
        output: run directory (default ``config.output_dir`` or ``reports/<name>``).
        limit: replay only the first ``limit`` requests of the file (overrides the config).
        resume: keep the decisions of an earlier run of the same config in ``output`` and
            do only the missing ones; usage replays their recorded choices.
        max_concurrency: calls per endpoint for model selectors.
        quiet: tell selectors not to print progress.
        progress: ``progress(done, total)`` after each decision.

    Raises:
        KeyboardInterrupt: after recording ``status: interrupted``; ``--resume`` continues.
    """
    if limit is not None:
        config = config.model_copy(update={"limit": limit})
    run_dir = Path(output) if output is not None else config.output_path()
    run_dir.mkdir(parents=True, exist_ok=True)
    config_hash = config.config_hash()
    started = now_iso()
    grid = build_grid(config)
    kept = resumable_rows(run_dir, config_hash) if resume else []
    pool = SelectorPool(
        grid.selector_configs, selector_env(config, max_concurrency=max_concurrency, quiet=quiet)
    )
    runs = _cell_runs(config, grid, pool, kept)
    texts = [r.text for r in grid.requests]
    for selector in {id(r.selector): r.selector for r in runs}.values():
        if isinstance(selector, Preparable):
            selector.prepare(texts)
    calibrated = any(isinstance(r.selector, Calibratable) for r in runs)
    grid.train = train_split(grid.requests, config) if calibrated else frozenset()
    fitted = {
        r.cell: _calibrate(r, grid.requests, grid.train)
        for r in runs
        if isinstance(r.selector, Calibratable)
    }
    for r in runs:
        if r.cell in fitted:
            r.train = grid.train
    annotators = _annotators(config, grid.requests)
    (run_dir / CONFIG_COPY).write_text(
        yaml.safe_dump(config.resolved(), sort_keys=False), encoding="utf-8"
    )
    info = _info(config, grid, fitted, len(kept))

    def write_manifest(status: str, reason: str | None = None) -> None:
        write_json(
            run_dir / MANIFEST,
            manifest(
                name=config.name,
                config_hash=config_hash,
                seed=config.seed,
                started=started,
                status=status,
                reason=reason,
                extra=info,
            ),
        )

    write_manifest("running")
    rows = {(r.cell.index, i): row for r in runs for i, row in _done_steps(r, grid.requests)}
    writer = ResultsWriter(run_dir / RESULTS, (rows[k] for k in sorted(rows)))
    status: RunStatus = "complete"
    reason: str | None = None
    try:
        _replay(
            runs,
            grid.requests,
            rows,
            writer,
            _FactsCache(config.token_model),
            annotators,
            progress,
            grid.decisions,
        )
    except RunStopped as stop:
        status, reason = "stopped", stop.reason
    except BaseException as exc:
        writer.close()
        write_manifest("interrupted", type(exc).__name__ + (f": {exc}" if str(exc) else ""))
        raise
    writer.close()
    ordered = [rows[k] for k in sorted(rows)]
    write_rows(run_dir / RESULTS, ordered)
    cells = summarize(
        run_dir, config.name, config_hash, grid.cells, ordered, fitted, grid.train, annotators
    )
    write_manifest(status, reason)
    return RunResult(run_dir, status, reason, cells, len(ordered), len(kept))


def _cell_runs(
    config: RunConfig, grid: Grid, pool: SelectorPool, kept: Iterable[Mapping[str, Any]]
) -> list[_CellRun]:
    done: dict[tuple[Any, ...], dict[str, Any]] = {row_key(r): dict(r) for r in kept}
    tracker = _trackers(config)
    record_label = config.usage.record == "label"
    runs = []
    interned: dict[int, dict[str, Listing]] = {}
    for cell in grid.cells:
        plan = grid.plans[cell]
        seen = interned.setdefault(id(plan), {})
        prefix = (*cell.key, cell.repeat)
        mine = {r.id: done[(*prefix, r.id)] for r in grid.requests if (*prefix, r.id) in done}
        runs.append(
            _CellRun(
                cell,
                plan,
                pool.for_cell(cell),
                tracker(cell.half_life),
                record_label,
                dependent=not record_label and scores_matter(plan),
                done=mine,
                seen=seen,
            )
        )
    return runs


def _done_steps(
    run: _CellRun, requests: Sequence[LabelledRequest]
) -> Iterable[tuple[int, dict[str, Any]]]:
    for i, r in enumerate(requests):
        if r.id in run.done:
            yield i, run.done[r.id]


def _replay(
    runs: Sequence[_CellRun],
    requests: Sequence[LabelledRequest],
    rows: dict[tuple[int, int], dict[str, Any]],
    writer: ResultsWriter,
    facts: _FactsCache,
    annotators: Sequence[Annotator],
    progress: Progress | None,
    total: int,
) -> None:
    """Rounds until every cell is through: gather queries, one ``select`` per selector."""
    active = list(runs)
    while active:
        groups: dict[int, tuple[Selector, list[tuple[_CellRun, int, Query]]]] = {}
        for run in active:
            for i, query in run.issue(requests):
                groups.setdefault(id(run.selector), (run.selector, []))[1].append((run, i, query))
        if not groups:
            break
        for selector, items in groups.values():
            start = time.perf_counter()
            decisions = selector.select([q for _, _, q in items])
            share = (time.perf_counter() - start) * 1000 / len(items)
            if len(decisions) != len(items):
                raise SkillbenchError(
                    f"selector {items[0][0].cell.selector!r} returned {len(decisions)} decisions "
                    f"for {len(items)} queries"
                )
            for (run, i, query), decision in zip(items, decisions, strict=True):
                split = "train" if query.request.id in run.train else "test"
                row = _row(run.cell, query, decision, facts.get(query.listing), split, share)
                for annotator in annotators:
                    row.update(annotator.annotate_row(row, query, decision))
                rows[run.cell.index, i] = row
                writer.write(row)
                run.finish(query.request, row)
                if progress is not None:
                    progress(len(rows), total)
        active = [r for r in active if r.pos < len(requests) or r.waiting]


def _info(
    config: RunConfig, grid: Grid, fitted: Mapping[Cell, Mapping[str, Any]], resumed: int
) -> dict[str, Any]:
    info: dict[str, Any] = {
        "requests": len(grid.requests),
        "cells": len(grid.cells),
        "decisions": grid.decisions,
        "resumed_rows": resumed,
        "limit": config.limit,
        "token_model": config.token_model,
        "usage": config.usage.model_dump(mode="json"),
        "timeline": {
            "days": config.timeline.days,
            "seed": config.seed if config.timeline.seed is None else config.timeline.seed,
        },
    }
    if grid.duplicates:
        info["duplicate_listings_skipped"] = grid.duplicates
    if fitted:
        info["calibration"] = {
            "train_fraction": config.calibration.train_fraction,
            "seed": config.seed if config.calibration.seed is None else config.calibration.seed,
            "train": len(grid.train),
            "test": len(grid.requests) - len(grid.train),
            "fitted": {cell.label: dict(v) for cell, v in fitted.items()},
        }
    return info
