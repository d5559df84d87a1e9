"""Results rows for tests that compute figures from hand-made decisions."""

from __future__ import annotations

import itertools
from typing import Any

from skillbench.results import ResultRow, summary_cell
from skillbench.types import CellKey

_IDS = itertools.count()

DEFAULTS: dict[str, Any] = {
    "catalog": "c",
    "profile": "codebot",
    "budget": None,
    "ordering": "alpha",
    "half_life": "7d",
    "selector": "s",
    "repeat": 0,
    "expected": [],
    "outcome": "correct_abstain",
    "listing_chars": 0,
    "listing_tokens": None,
    "shown": 0,
    "latency_ms": 0.0,
}
"""What a row needs beyond the fields a test cares about."""


def result_row(**fields: Any) -> ResultRow:
    """A validated results row: ``fields`` over :data:`DEFAULTS` (a fresh request id unless
    given)."""
    return ResultRow(**{**DEFAULTS, "request_id": f"r{next(_IDS)}", **fields})


KEY = CellKey(
    catalog="c", profile="codebot", budget=None, ordering="alpha", half_life="7d", selector="s"
)
"""The cell every hand-made row of :func:`cell_json` belongs to."""


def cell_json(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary cell of hand-made rows (fields over :data:`DEFAULTS`) as ``summary.json``
    stores it."""
    return summary_cell(KEY, [result_row(**r) for r in rows]).to_json()
