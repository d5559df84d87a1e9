"""Small public types of the replay engine: cells and the run's observer and planner hooks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from skillbench.selectors import Query
from skillbench.types import CellKey, JsonObject

if TYPE_CHECKING:
    from skillbench.results import ResultRow


@dataclass(frozen=True, slots=True)
class Cell:
    """One grid cell: its summary-cell key (a listing setting and a selector) and a repeat.

    ``key.budget`` is the *effective* budget (what the renderer applied), so two configured
    budgets that render the same (``null`` and the profile default) make one cell.
    ``key.catalog_size`` and ``key.distractors`` are set only in a catalog-size sweep.
    """

    index: int
    key: CellKey
    repeat: int

    @property
    def label(self) -> str:
        return cell_label(self.key) + f"/r{self.repeat}"


def cell_label(key: CellKey) -> str:
    """``catalog/profile/budget/ordering/half-life/selector`` (and the size in a sweep)."""
    budget = "default" if key.budget is None else str(key.budget)
    parts = (key.catalog, key.profile, budget, key.ordering, key.half_life, key.selector)
    size = "" if key.catalog_size is None else f"/n{key.catalog_size}-{key.distractors}"
    return "/".join(parts) + size


class RunObserver(Protocol):
    """Watches a run: the phase it is in and every decision it finishes (terminal progress)."""

    def phase(self, name: str, total: int | None = None) -> None:
        """The run enters phase ``name`` (``total``: its items, when known)."""
        ...

    def decision(self, row: ResultRow) -> None:
        """A decision of the replay finished with results row ``row``."""
        ...

    def count(self, done: int, total: int) -> None:
        """``done`` of the current phase's ``total`` items are through (texts embedded)."""
        ...


@runtime_checkable
class Plannable(Protocol):
    """A selector that can tell, before a run, what the run would cost it (``--dry-run``)."""

    def plan(self, queries: Sequence[Query]) -> JsonObject:
        """E.g. ``{"calls": 120, "cached": 30, "est_tokens": 51000, "est_cost_usd": 0.07}``."""
        ...
