"""Rows grouped by their cell (the row itself, ``ResultRow``, is on the ground floor:
``skillbench.types``)."""

from __future__ import annotations

from collections.abc import Iterable

from skillbench.types import CellKey, ResultRow


def group_by_cell(rows: Iterable[ResultRow]) -> dict[CellKey, list[ResultRow]]:
    """Rows per cell (``row.key``), cells and rows in first-seen order."""
    out: dict[CellKey, list[ResultRow]] = {}
    for row in rows:
        out.setdefault(row.key, []).append(row)
    return out
