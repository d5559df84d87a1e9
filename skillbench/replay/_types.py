"""Small public types of the replay engine: cells, stop signal and extension points."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from skillbench._registry import Registry
from skillbench.dataset import LabelledRequest
from skillbench.selectors import Decision, Query

if TYPE_CHECKING:
    from skillbench.replay._config import RunConfig

CELL_FIELDS = ("catalog", "profile", "budget", "ordering", "half_life", "selector")
"""The fields identifying a summary cell (a grid cell without its repeat index)."""

RunStatus = Literal["running", "complete", "interrupted", "stopped"]


class RunStopped(Exception):
    """Raised by a selector to end the run cleanly (e.g. a spend cap was reached).

    The engine keeps every finished decision, writes the summary of what was done and records
    ``status: stopped`` with ``reason`` in the manifest; ``--resume`` continues later.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Cell:
    """One grid cell: a listing setting, a selector and a repeat.

    ``budget`` is the *effective* budget (what the renderer applied), so two configured
    budgets that render the same (``null`` and the profile default) make one cell.
    """

    index: int
    catalog: str
    profile: str
    budget: int | None
    ordering: str
    half_life: str
    selector: str
    repeat: int

    @property
    def key(self) -> tuple[Any, ...]:
        """The summary-cell identity (``CELL_FIELDS``), repeats pooled."""
        return (
            self.catalog,
            self.profile,
            self.budget,
            self.ordering,
            self.half_life,
            self.selector,
        )

    @property
    def label(self) -> str:
        budget = "default" if self.budget is None else str(self.budget)
        parts = (self.catalog, self.profile, budget, self.ordering, self.half_life, self.selector)
        return "/".join(parts) + f"/r{self.repeat}"

    def fields(self) -> dict[str, Any]:
        return dict(zip(CELL_FIELDS, self.key, strict=True))


class RunObserver(Protocol):
    """Watches a run: the phase it is in and every decision it finishes (terminal progress)."""

    def phase(self, name: str, total: int | None = None) -> None:
        """The run enters phase ``name`` (``total``: its items, when known)."""
        ...

    def decision(self, row: Mapping[str, Any]) -> None:
        """A decision of the replay finished with results row ``row``."""
        ...


@runtime_checkable
class Plannable(Protocol):
    """A selector that can tell, before a run, what the run would cost it (``--dry-run``)."""

    def plan(self, queries: Sequence[Query]) -> Mapping[str, Any]:
        """E.g. ``{"calls": 120, "cached": 30, "est_tokens": 51000, "est_cost_usd": 0.07}``."""
        ...


class Annotator(Protocol):
    """Adds fields to results rows and summary cells (the cost package's hook)."""

    def annotate_row(
        self, row: Mapping[str, Any], query: Query, decision: Decision
    ) -> Mapping[str, Any]:
        """Fields to merge into ``row`` (e.g. ``inline_tokens``, ``fork_tokens``)."""
        ...

    def annotate_cell(
        self, cell: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        """Fields to merge into the summary cell (e.g. ``{"cost": {...}}``)."""
        ...


AnnotatorFactory = Callable[["RunConfig", Sequence[LabelledRequest]], "Annotator | None"]
ANNOTATORS: Registry[AnnotatorFactory] = Registry("annotator")
"""Every registered factory is called for each run; a factory returns None to stay out.
``skillbench.cost`` registers here when it is importable."""
