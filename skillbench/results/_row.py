"""Rows grouped by their cell (the row itself, ``ResultRow``, is on the ground floor:
``skillbench.types``)."""

from __future__ import annotations

from collections.abc import Iterable

from skillbench.types import CellKey, ResultRow


def spent_usd(row: ResultRow) -> float | None:
    """Dollars a decision's calls cost when it was made: its call and its sub-agent call
    (``execute_fork``), each nothing when answered from the cache; None when the provider
    priced none of them (an offline selector, an unpriced model)."""
    priced = [
        part
        for part in (row.detail, row.detail.get("fork"))
        if isinstance(part, dict) and isinstance(part.get("cost_usd"), int | float)
    ]
    if not priced:
        return None
    return sum(float(part["cost_usd"]) for part in priced if not part.get("cached"))


def group_by_cell(rows: Iterable[ResultRow]) -> dict[CellKey, list[ResultRow]]:
    """Rows per cell (``row.key``), cells and rows in first-seen order."""
    out: dict[CellKey, list[ResultRow]] = {}
    for row in rows:
        out.setdefault(row.key, []).append(row)
    return out
