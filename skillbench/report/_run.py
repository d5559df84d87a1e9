"""Reading a run directory (results.jsonl, summary.json, manifest.json, config.yaml) and
naming its cells."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from skillbench._errors import SkillbenchError
from skillbench.listing import NotShown, why_not_shown
from skillbench.metrics import counted_rows
from skillbench.types import CELL_FIELDS, CellKey

BASELINES = frozenset({"never", "random"})
"""Selector types that ignore what descriptions say: no listing change can help them."""
ORACLE = "oracle"
"""The selector type that picks an expected skill whenever one is shown: the listing's bound."""

Row = Mapping[str, Any]


def cell_key(record: Row) -> CellKey:
    """The identity of the cell a results row or summary cell belongs to."""
    return CellKey.of(record)


def fmt_value(value: Any) -> str:
    """A key value as users type it in selections (``None`` → ``none``)."""
    return "none" if value is None else str(value)


def sort_value(value: Any) -> tuple[bool, float, str]:
    """Sort key putting numbers in numeric order, then text, then ``None``."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return (value is None, float(value) if number else 0.0, "" if number else str(value))


@dataclass(frozen=True)
class Run:
    """One run directory, loaded.

    Attributes:
        path: the directory.
        summary: ``summary.json`` (``name``, ``config_hash``, ``cells``).
        rows: every results row, in file order; empty when results.jsonl is absent.
        manifest: ``manifest.json`` when present.
        config: ``config.yaml`` (the resolved config) when present.
    """

    path: Path
    summary: Mapping[str, Any]
    rows: list[Row] = field(default_factory=list)
    manifest: Mapping[str, Any] = field(default_factory=dict)
    config: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.summary.get("name") or self.path.name)

    @property
    def status(self) -> str:
        """How the run ended (``complete`` when no manifest says otherwise)."""
        return str(self.manifest.get("status") or "complete")

    @property
    def banner(self) -> str | None:
        """One line warning that the results are partial, for runs that did not complete."""
        if self.status == "complete":
            return None
        reason = self.manifest.get("stop_reason")
        return (
            f"Run {self.status}"
            + (f": {reason}" if reason else "")
            + ("; the figures cover only the decisions that were made and answered.")
        )

    @property
    def cells(self) -> list[Mapping[str, Any]]:
        return list(self.summary.get("cells", []))

    def selector_type(self, name: Any) -> str:
        """The registry type of a selector named in the cells (``config.yaml``; else the name,
        which is the type unless the config renamed it)."""
        for sel in self.config.get("selectors") or ():
            if isinstance(sel, Mapping) and str(sel.get("name") or sel.get("type")) == str(name):
                return str(sel.get("type"))
        return str(name)

    def varying(self) -> list[str]:
        """Key fields that take more than one value across the cells (what a label must show)."""
        return varying_keys(self.cells)

    def inert(self) -> list[str]:
        """Varying key fields that changed no rate (see :func:`inert_keys`)."""
        return inert_keys(self.cells)

    def distinct(self) -> tuple[list[Mapping[str, Any]], list[str]]:
        """Cells and label keys for plots and advice: inert fields held at their first value.

        A grid where half-life changed nothing would otherwise draw every line twice, one
        hiding the other, and give the same advice twice.
        """
        inert = self.inert()
        first = {k: self.cells[0].get(k) for k in inert} if self.cells else {}
        cells = [c for c in self.cells if all(c.get(k) == v for k, v in first.items())]
        return cells, [k for k in self.varying() if k not in inert]

    def rows_by_cell(self) -> dict[CellKey, list[Row]]:
        """Rows per cell, restricted like the summary (test split when a selector calibrated)."""
        out: dict[CellKey, list[Row]] = {}
        for row in self.rows:
            out.setdefault(cell_key(row), []).append(row)
        return {key: counted_rows(rows) for key, rows in out.items()}


def varying_keys(cells: Iterable[Row]) -> list[str]:
    cells = list(cells)
    return [k for k in CELL_FIELDS if len({fmt_value(c.get(k)) for c in cells}) > 1]


RESULT_FIELDS = ("n", "outcomes", "coverage", "recall_when_shown")
"""What decides every rate of a cell: equal fields, equal rates."""


def inert_keys(cells: Iterable[Row]) -> list[str]:
    """Varying key fields whose value changed no rate.

    Cells are grouped by every other key field; a field is inert when, in every group, all
    its values give the same outcome counts and coverage (e.g. half-lives that reorder the
    listing without changing what is shown or chosen).
    """
    cells = list(cells)
    out = []
    for key in varying_keys(cells):
        others = [k for k in CELL_FIELDS if k != key]
        groups: dict[tuple[str, ...], dict[str, str]] = {}
        for c in cells:
            results = json.dumps([c.get(f) for f in RESULT_FIELDS], sort_keys=True, default=str)
            group = groups.setdefault(tuple(fmt_value(c.get(k)) for k in others), {})
            group[fmt_value(c.get(key))] = results
        compared = [g for g in groups.values() if len(g) > 1]
        if compared and all(len(set(g.values())) == 1 for g in compared):
            out.append(key)
    return out


def half_life_order(label: Any) -> tuple[float, str]:
    """Sort key putting half-life labels in duration order (``1h``, ``12h``, ``1d`` … ``inf``)."""
    from skillbench.usage import parse_duration

    try:
        duration = parse_duration(None if label is None else str(label))
    except SkillbenchError:
        return (math.inf, str(label))
    return (math.inf if duration is None else duration.total_seconds(), "")


def cell_label(cell: Row, keys: Iterable[str]) -> str:
    """``budget=2000 ordering=usage``: only the fields that tell cells apart."""
    parts = [f"{k}={fmt_value(cell.get(k))}" for k in keys]
    return " ".join(parts) or "all"


def load_run(path: str | Path, *, rows: bool = True) -> Run:
    """Load a run directory with ``skillbench.results.read_run`` (which checks that its files
    belong together) and give the report its mapping views of the records."""
    from skillbench.results import read_run

    run = read_run(path, rows=rows)
    return Run(
        path=run.path,
        summary=run.summary.to_json(),
        rows=[r.model_dump(mode="json") for r in run.rows],
        manifest=run.manifest.to_json() if run.manifest is not None else {},
        config=run.config,
    )


def _skill_facts(run: Run, fact: Literal["skills", "status"]) -> dict[str, str]:
    """Skill name → description (``skills``) or non-active status (``status``), from the
    manifest's catalog variants (the first variant naming a skill wins)."""
    out: dict[str, str] = {}
    for variant in (run.manifest.get("catalogs") or {}).values():
        for name, value in variant[fact].items():
            out.setdefault(name, value)
    return out


def skill_descriptions(run: Run) -> dict[str, str]:
    """Skill name → description when the run recorded its catalog."""
    return _skill_facts(run, "skills")


def skill_statuses(run: Run) -> dict[str, str]:
    """Skill name → catalog status (``active``, ``inactive``, ``disabled``) when recorded."""
    return _skill_facts(run, "status")


def status_counts(run: Run) -> dict[str, int]:
    """``inactive``/``disabled`` skill counts in the manifest (the largest over catalogs)."""
    out: dict[str, int] = {}
    catalogs = run.manifest.get("catalogs")
    for variant in catalogs.values() if isinstance(catalogs, Mapping) else ():
        for status in ("inactive", "disabled"):
            count = variant.get(status) if isinstance(variant, Mapping) else None
            if isinstance(count, int) and count > 0:
                out[status] = max(out.get(status, 0), count)
    return out


def not_shown_reason(run: Run, name: str, where: Row) -> NotShown:
    """Why the skill ``name`` was missing from the listing of ``where`` (a results row or a
    summary cell: its catalog variant and budget), from the manifest's catalog facts."""
    catalogs = run.manifest.get("catalogs")
    variant = catalogs.get(where.get("catalog")) if isinstance(catalogs, Mapping) else None
    if not isinstance(variant, Mapping):
        return why_not_shown(name, statuses=skill_statuses(run), budget=where.get("budget"))
    return why_not_shown(
        name,
        statuses=variant.get("status") or {},
        loaded=set(variant.get("skills") or ()),
        overridden=variant.get("overridden") or {},
        budget=where.get("budget"),
    )
