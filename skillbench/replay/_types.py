"""Small public types of the replay engine: cells, run status and extension points."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from skillbench._registry import Registry
from skillbench.types import CELL_FIELDS, CellKey, Decision, DistractorMode, Query

if TYPE_CHECKING:
    from skillbench.replay._config import RunConfig
    from skillbench.replay._grid import Grid
    from skillbench.results import CellFields, ResultRow


@dataclass(frozen=True, slots=True)
class Cell:
    """One grid cell: a listing setting, a selector and a repeat.

    ``budget`` is the *effective* budget (what the renderer applied), so two configured
    budgets that render the same (``null`` and the profile default) make one cell.
    ``catalog_size`` and ``distractors`` are set only in a catalog-size sweep.
    """

    index: int
    catalog: str
    profile: str
    budget: int | None
    ordering: str
    half_life: str
    selector: str
    repeat: int
    catalog_size: int | None = None
    distractors: DistractorMode | None = None

    @property
    def key(self) -> CellKey:
        """The summary-cell identity, repeats pooled."""
        return CellKey(**{name: getattr(self, name) for name in CELL_FIELDS})

    @property
    def label(self) -> str:
        budget = "default" if self.budget is None else str(self.budget)
        parts = (self.catalog, self.profile, budget, self.ordering, self.half_life, self.selector)
        size = "" if self.catalog_size is None else f"/n{self.catalog_size}-{self.distractors}"
        return "/".join(parts) + size + f"/r{self.repeat}"

    def fields(self) -> dict[str, Any]:
        """The key as results rows and summary cells store it (unset size fields left out)."""
        return self.key.model_dump()


class RunObserver(Protocol):
    """Watches a run: the phase it is in and every decision it finishes (terminal progress)."""

    def phase(self, name: str, total: int | None = None) -> None:
        """The run enters phase ``name`` (``total``: its items, when known)."""
        ...

    def decision(self, row: Mapping[str, Any]) -> None:
        """A decision of the replay finished with results row ``row``."""
        ...

    def count(self, done: int, total: int) -> None:
        """``done`` of the current phase's ``total`` items are through (texts embedded)."""
        ...


@runtime_checkable
class Plannable(Protocol):
    """A selector that can tell, before a run, what the run would cost it (``--dry-run``)."""

    def plan(self, queries: Sequence[Query]) -> Mapping[str, Any]:
        """E.g. ``{"calls": 120, "cached": 30, "est_tokens": 51000, "est_cost_usd": 0.07}``."""
        ...


class Annotator(Protocol):
    """Adds fields to results rows and summary cells (the cost package's hook)."""

    def annotate_row(self, row: ResultRow, query: Query, decision: Decision) -> ResultRow:
        """``row`` with the annotator's fields set (e.g. ``inline_tokens``, ``fork_tokens``)."""
        ...

    def annotate_cell(self, cell: CellFields, rows: Sequence[ResultRow]) -> CellFields:
        """``cell`` with the annotator's section set (e.g. ``cost``)."""
        ...


AnnotatorFactory = Callable[["RunConfig", "Grid"], "Annotator | None"]
ANNOTATORS: Registry[AnnotatorFactory] = Registry("annotator")
"""Every registered factory is called for each run with the config and the prepared grid
(requests, catalogs); a factory returns None to stay out. The replay package registers
``cost`` and ``repeats``."""
