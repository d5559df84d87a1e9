"""The listing each decision saw, rebuilt by replaying the run's usage history.

Results rows keep the listing's size and the expected skill's position, not its text (the text
would dwarf the rows). The text follows from the resolved config: the same catalogs and
requests, one :class:`ListingPlan` per cell, retrieve stages ranking the catalog again, and
the usage recorded before each request, all through the engine's own ``listing_at`` and
``recorded_use``. Every rebuilt listing is checked against its row's ``listing_chars``; a
mismatch marks the listing as not reproduced instead of showing a wrong one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.dataset import LabelledRequest
from skillbench.listing import Listing
from skillbench.results import ResultRow, RowKey
from skillbench.view._why import why_not_shown

"""A decision: its cell, repeat and request id."""


class Span(NamedTuple):
    """Where a shown entry sits in the listing text (character offsets, end excluded)."""

    name: str
    start: int
    end: int


@dataclass(frozen=True)
class Rebuilt:
    """Listings rebuilt for a run.

    Attributes:
        requests: the run's requests by id (text, tags, extra fields).
        listings: distinct listing texts, each with the span of every shown entry in order.
        by_row: decision → index into ``listings``.
        why: decision → why its expected skill was not shown (only for such decisions).
        mismatched: decisions whose rebuilt listing disagreed with the row's size.
        note: why listings are missing, when they are.
    """

    requests: Mapping[str, LabelledRequest] = field(default_factory=dict)
    listings: Sequence[tuple[str, Sequence[Span]]] = ()
    by_row: Mapping[RowKey, int] = field(default_factory=dict)
    why: Mapping[RowKey, str] = field(default_factory=dict)
    mismatched: int = 0
    note: str | None = None


def entry_spans(listing: Listing) -> list[Span]:
    """Each shown entry's place in ``listing.text``: from the start of the line naming it,
    as long as the renderer says the entry is."""
    text, cursor, out = listing.text, 0, []
    for entry in listing.shown:
        found = text.find(entry.name, cursor)
        if found < 0:
            break
        start = text.rfind("\n", 0, found) + 1
        end = min(len(text), max(found + len(entry.name), start + entry.chars))
        out.append(Span(entry.name, start, end))
        cursor = end
    return out


def rebuild_listings(config_path: Path | None, rows: Iterable[ResultRow]) -> Rebuilt:
    """Rebuild the listing of every row from the run's resolved config.

    Returns an empty :class:`Rebuilt` with a ``note`` when the config, catalogs or requests
    can no longer be read (moved or deleted inputs): the viewer then shows decisions without
    listings rather than failing.
    """
    if config_path is None:
        return Rebuilt(note="the run directory has no config.yaml")
    from skillbench.replay import build_grid, load_config, replayed_listings, resolve_experiment

    try:
        experiment = resolve_experiment(load_config(config_path))
        grid = build_grid(experiment.grid)
    except SkillbenchError as exc:
        return Rebuilt(note=f"the run's inputs could not be read again ({exc})")
    by_key: dict[RowKey, ResultRow] = {r.row_key: r for r in rows}
    texts: dict[str, int] = {}
    listings: list[tuple[str, Sequence[Span]]] = []
    by_row: dict[RowKey, int] = {}
    why: dict[RowKey, str] = {}
    mismatched = 0
    try:
        for step in replayed_listings(experiment, grid, by_key):
            row, listing, request = step.row, step.shown.listing, step.request
            if row is None:
                continue
            key = RowKey(step.cell.key, step.cell.repeat, request.id)
            if row.listing_chars != len(listing.text):
                mismatched += 1
                continue
            index = texts.get(listing.text)
            if index is None:
                index = texts[listing.text] = len(listings)
                listings.append((listing.text, entry_spans(listing)))
            by_row[key] = index
            hidden = [n for n in request.expected if n not in listing.shown_names]
            if hidden and len(hidden) == len(request.expected):
                why[key] = why_not_shown(hidden, step, grid, experiment.grid.profile_options)
    except SkillbenchError as exc:
        return Rebuilt(note=f"the run's retrieve stage could not rank again ({exc})")
    requests = {r.id: r for r in grid.requests}
    return Rebuilt(requests, listings, by_row, why, mismatched)
