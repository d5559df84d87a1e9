"""The data the viewer page embeds: decisions, requests, listings and, for two runs, flips.

The run's typed records become the page's JSON here, once. Listing texts are stored as
indices into one table of distinct lines: a usage-ordered run shows thousands of listings
that share almost every line, so the page stays a few megabytes instead of tens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.report._run import BASELINES, ORACLE
from skillbench.results import ResultRow, RowKey
from skillbench.transcripts import class_text
from skillbench.types import CORRECT, CellKey, JsonObject, JsonValue
from skillbench.view._diff import run_diff
from skillbench.view._listings import Rebuilt, Span, rebuild_listings
from skillbench.view._source import RunData

BASELINE_TYPES = BASELINES | {ORACLE}
"""Selector types that bound a run rather than being tested by it: behind a switch."""


class _Interner:
    """Index of each distinct value, in first-seen order."""

    def __init__(self) -> None:
        self.index: dict[Any, int] = {}
        self.values: list[Any] = []

    def add(self, value: Any) -> int:
        found = self.index.get(value)
        if found is None:
            found = self.index[value] = len(self.values)
            self.values.append(value)
        return found


def _listing_record(lines: _Interner, text: str, spans: Sequence[Span]) -> JsonObject:
    return {
        "lines": [lines.add(line) for line in text.split("\n")],
        "spans": [[s.name, s.start, s.end] for s in spans],
    }


def _request_record(rebuilt: Rebuilt, row: ResultRow) -> JsonObject:
    request = rebuilt.requests.get(row.request_id)
    source = request.extra.get("label_source") if request is not None else None
    found = request.extra.get("classes") if request is not None else None
    classes: list[JsonValue] = (
        [t for c in found if (t := class_text(c))] if isinstance(found, list) else []
    )
    return {
        "id": row.request_id,
        "text": request.text if request is not None else None,
        "expected": list(row.expected),
        "tags": list(row.tags or (request.tags if request is not None else ())),
        "labelSource": None if source is None else str(source),
        "classes": classes,
    }


def build_payload(runs: Sequence[RunData]) -> JsonObject:
    """The page's data for one run, or two runs whose flipped decisions are paired."""
    lines, listings, requests = _Interner(), _Interner(), _Interner()
    listing_records: list[JsonObject] = []
    request_records: list[JsonObject] = []
    decisions: list[list[Any]] = []
    run_records = []
    where: list[dict[RowKey, int]] = []
    for r, run in enumerate(runs):
        rebuilt = rebuild_listings(run.config, run.rows)
        cells = {key: i for i, key in enumerate(run.cells)}
        thresholds = _thresholds(run)
        mine: dict[RowKey, int] = {}
        for row in run.rows:
            rid = row.request_id
            if rid not in requests.index:
                request_records.append(_request_record(rebuilt, row))
            key = row.row_key
            listing = None
            if key in rebuilt.by_row:
                text, spans = rebuilt.listings[rebuilt.by_row[key]]
                listing = listings.add((r, rebuilt.by_row[key]))
                if listing == len(listing_records):
                    listing_records.append(_listing_record(lines, text, spans))
            mine[key] = len(decisions)
            decisions.append(
                [
                    r,
                    cells[row.key],
                    requests.add(rid),
                    row.repeat,
                    row.chosen,
                    row.outcome,
                    listing,
                    row.gold_position,
                    row.detail or None,
                    rebuilt.why.get(key),
                    row.score,
                    thresholds.get((row.key, row.repeat)),
                ]
            )
        where.append(mine)
        run_records.append(
            {
                "name": run.name,
                "path": str(run.path),
                "cells": list(run.labels),
                "note": " ".join(filter(None, [_note(rebuilt), _releases(run)])) or None,
                "selectors": _selectors(run),
                "cellSelectors": [key.selector for key in run.cells],
            }
        )
    payload: dict[str, Any] = {  # JSON: each list is typed where it is built
        "runs": run_records,
        "requests": request_records,
        "lines": lines.values,
        "listings": listing_records,
        "decisions": decisions,
        "flips": [],
        "pairing": None,
    }
    if len(runs) == 2:
        payload["flips"], payload["pairing"] = _flips(runs, where, decisions)
        payload["diff"] = run_diff(runs[0], runs[1])
    return payload


def _selectors(run: RunData) -> JsonObject:
    """Each selector of the run: its registry type and whether it is a baseline (a bound or
    a floor, not a selector under test)."""
    types = {
        str(sel.get("name") or sel.get("type")): str(sel.get("type"))
        for sel in _selector_entries(run)
    }
    names = {key.selector for key in run.cells}
    return {
        name: {"type": types.get(name, name), "baseline": types.get(name, name) in BASELINE_TYPES}
        for name in sorted(names)
    }


def _selector_entries(run: RunData) -> list[JsonObject]:
    """The selectors of the run's config file (none without one)."""
    selectors = run.settings.get("selectors")
    return [s for s in selectors if isinstance(s, dict)] if isinstance(selectors, list) else []


def _thresholds(run: RunData) -> dict[tuple[CellKey, int], float]:
    """The threshold each (cell, repeat) decided with: fitted by calibration, else set."""
    configured = {
        str(sel.get("name") or sel.get("type")): sel.get("threshold")
        for sel in _selector_entries(run)
    }
    out: dict[tuple[CellKey, int], float] = {}
    fitted = {c.key: c.calibration.fitted for c in run.summary if c.calibration is not None}
    for key, repeat in {(r.key, r.repeat) for r in run.rows}:
        fits = fitted.get(key, [])
        value = fits[repeat].threshold if repeat < len(fits) else configured.get(key.selector)
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[key, repeat] = float(value)
    return out


def _releases(run: RunData) -> str | None:
    """Which agent release each agent profile's listings follow (``my-agent`` is the newest
    verified release, ``my-agent@1.2.0`` that one), from the run's manifest."""
    facts = run.agents
    if not facts:
        return None
    named = [f"{profile} → {f.get('verified_version')}" for profile, f in facts.items()]
    return f"Agent releases: {', '.join(named)}."


def _note(rebuilt: Rebuilt) -> str | None:
    if rebuilt.note:
        return f"Listings are not shown: {rebuilt.note}."
    if rebuilt.mismatched:
        return (
            f"{rebuilt.mismatched:,} listings could not be rebuilt to the size their rows "
            "record (the inputs changed since the run) and are not shown."
        )
    return None


def _flips(
    runs: Sequence[RunData], where: Sequence[Mapping[RowKey, int]], decisions: Sequence[Any]
) -> tuple[list[list[int]], str]:
    """Pairs of decisions (A, B) on the same request whose correctness differs.

    Cells pair by their key fields; two runs with no key in common but as many cells pair
    in summary order (a rerun under another name, say).
    """
    a, b = runs
    common = set(a.cells) & set(b.cells)
    if common:
        match = {key: key for key in common}
        pairing = f"{len(common)} cell(s) with the same settings in both runs"
    elif len(a.cells) == len(b.cells):
        match = dict(zip(a.cells, b.cells, strict=True))
        pairing = "no cell has the same settings in both runs: cells paired in summary order"
    else:
        return [], "no cell has the same settings in both runs, and their cell counts differ"
    flips = []
    for (cell, repeat, rid), i in where[0].items():
        if cell not in match:
            continue
        j = where[1].get(RowKey(match[cell], repeat, rid))
        if j is not None and (decisions[i][5] in CORRECT) != (decisions[j][5] in CORRECT):
            flips.append([i, j])
    return flips, pairing
