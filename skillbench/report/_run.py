"""What the report reads off a run (``skillbench.results.Run``): its name and end state, the
cells' varying and inert key fields, rows per cell, and the catalog facts of its manifest."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from skillbench._errors import SkillbenchError
from skillbench.listing import NotShown, why_not_shown
from skillbench.metrics import METRICS, counted_rows
from skillbench.results import CellFields, ResultRow, Run, group_by_cell
from skillbench.types import CELL_FIELDS, CellKey

BASELINES = frozenset({"never", "random"})
"""Selector types that ignore what descriptions say: no listing change can help them."""
ORACLE = "oracle"
"""The selector type that picks an expected skill whenever one is shown: the listing's bound."""


def fmt_value(value: Any) -> str:
    """A key value as users type it in selections (``None`` → ``none``)."""
    return "none" if value is None else str(value)


def sort_value(value: Any) -> tuple[bool, float, str]:
    """Sort key putting numbers in numeric order, then text, then ``None``."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return (value is None, float(value) if number else 0.0, "" if number else str(value))


def run_name(run: Run) -> str:
    """The run's name from its summary (the directory's name when the summary has none)."""
    return run.summary.name or run.path.name


def banner(run: Run) -> str | None:
    """One line warning that the results are partial, for runs that did not complete."""
    if run.status == "complete":
        return None
    reason = run.manifest.stop_reason if run.manifest is not None else None
    return (
        f"Run {run.status}"
        + (f": {reason}" if reason else "")
        + ("; the figures cover only the decisions that were made and answered.")
    )


def selector_type(run: Run, name: str) -> str:
    """The registry type of a selector named in the cells (``config.yaml``; else the name,
    which is the type unless the config renamed it)."""
    return run.selector_types.get(name, name)


def varying_keys(cells: Iterable[CellKey]) -> list[str]:
    """Key fields that take more than one value across ``cells`` (what a label must show)."""
    cells = list(cells)
    return [k for k in CELL_FIELDS if len({fmt_value(getattr(c, k)) for c in cells}) > 1]


def _results(cell: CellFields) -> str:
    """What decides every rate of a cell: equal texts, equal rates."""
    facts = [cell.n, cell.outcomes, cell.metric("coverage"), cell.metric("recall_when_shown")]
    return json.dumps(facts, sort_keys=True, default=str)


def inert_keys(cells: Sequence[CellFields]) -> list[str]:
    """Varying key fields whose value changed no rate.

    Cells are grouped by every other key field; a field is inert when, in every group, all
    its values give the same outcome counts and coverage (e.g. half-lives that reorder the
    listing without changing what is shown or chosen).
    """
    out = []
    for key in varying_keys(cells):
        others = [k for k in CELL_FIELDS if k != key]
        groups: dict[tuple[str, ...], dict[str, str]] = {}
        for c in cells:
            group = groups.setdefault(tuple(fmt_value(getattr(c, k)) for k in others), {})
            group[fmt_value(getattr(c, key))] = _results(c)
        compared = [g for g in groups.values() if len(g) > 1]
        if compared and all(len(set(g.values())) == 1 for g in compared):
            out.append(key)
    return out


def distinct(cells: Sequence[CellFields]) -> tuple[list[CellFields], list[str]]:
    """Cells and label keys for plots and advice: inert fields held at their first value.

    A grid where half-life changed nothing would otherwise draw every line twice, one
    hiding the other, and give the same advice twice.
    """
    inert = inert_keys(cells)
    first = {k: getattr(cells[0], k) for k in inert} if cells else {}
    kept = [c for c in cells if all(getattr(c, k) == v for k, v in first.items())]
    return kept, [k for k in varying_keys(cells) if k not in inert]


def rows_by_cell(
    rows: Iterable[ResultRow], *, counted: bool = True
) -> dict[CellKey, list[ResultRow]]:
    """Rows per cell: only those the summary counts (the test split when a selector was
    calibrated), or with ``counted=False`` every row."""
    groups = group_by_cell(rows)
    if not counted:
        return groups
    return {key: counted_rows(cell_rows) for key, cell_rows in groups.items()}


def has_metric(cell: CellFields, name: str) -> bool:
    """Whether the summary cell carries metric ``name`` (an optional metric is left out of a
    cell where it is undefined)."""
    return not METRICS.get(name).optional or cell.metric(name) is not None


def value(cell: CellFields, name: str) -> float:
    """The value of metric ``name`` in a cell the caller kept for having it."""
    found = cell.metric(name)
    if found is None:
        raise ValueError(f"cell {cell.key} has no {name}")
    return found


def half_life_order(label: Any) -> tuple[float, str]:
    """Sort key putting half-life labels in duration order (``1h``, ``12h``, ``1d`` … ``inf``)."""
    from skillbench.usage import parse_duration

    try:
        duration = parse_duration(None if label is None else str(label))
    except SkillbenchError:
        return (math.inf, str(label))
    return (math.inf if duration is None else duration.total_seconds(), "")


def cell_label(cell: CellKey, keys: Iterable[str]) -> str:
    """``budget=2000 ordering=usage``: only the fields that tell cells apart."""
    parts = [f"{k}={fmt_value(getattr(cell, k))}" for k in keys]
    return " ".join(parts) or "all"


def _skill_facts(run: Run, fact: Literal["skills", "status"]) -> dict[str, str]:
    """Skill name → description (``skills``) or non-active status (``status``), from the
    manifest's catalog variants (the first variant naming a skill wins)."""
    out: dict[str, str] = {}
    for variant in run.manifest.catalogs.values() if run.manifest is not None else ():
        for name, value in getattr(variant, fact).items():
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
    for variant in run.manifest.catalogs.values() if run.manifest is not None else ():
        for status, count in (("inactive", variant.inactive), ("disabled", variant.disabled)):
            if count > 0:
                out[status] = max(out.get(status, 0), count)
    return out


def not_shown_reason(run: Run, name: str, where: CellKey | None) -> NotShown:
    """Why the skill ``name`` was missing from the listing of ``where`` (a results row or a
    summary cell: its catalog variant and budget; None: neither is known), from the
    manifest's catalog facts."""
    budget = where.budget if where is not None else None
    catalogs = run.manifest.catalogs if run.manifest is not None else {}
    variant = catalogs.get(where.catalog) if where is not None else None
    if variant is None:
        return why_not_shown(name, statuses=skill_statuses(run), budget=budget)
    return why_not_shown(
        name,
        statuses=variant.status,
        loaded=set(variant.skills),
        overridden=variant.overridden,
        budget=budget,
    )
