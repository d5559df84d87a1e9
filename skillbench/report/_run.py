"""Reading a run directory (results.jsonl, summary.json, manifest.json) and naming its cells."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench.metrics import counted_rows

CELL_KEYS = ("catalog", "profile", "budget", "ordering", "half_life", "selector")
"""The fields that identify a cell (docs/architecture.md)."""

CellKey = tuple[Any, ...]
Row = Mapping[str, Any]


def cell_key(record: Row) -> CellKey:
    """The identity of the cell a results row or summary cell belongs to."""
    return tuple(record.get(k) for k in CELL_KEYS)


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
    """

    path: Path
    summary: Mapping[str, Any]
    rows: list[Row] = field(default_factory=list)
    manifest: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.summary.get("name") or self.path.name)

    @property
    def cells(self) -> list[Mapping[str, Any]]:
        return list(self.summary.get("cells", []))

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
    return [k for k in CELL_KEYS if len({fmt_value(c.get(k)) for c in cells}) > 1]


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
        others = [k for k in CELL_KEYS if k != key]
        groups: dict[tuple[str, ...], dict[str, str]] = {}
        for c in cells:
            results = json.dumps([c.get(f) for f in RESULT_FIELDS], sort_keys=True, default=str)
            group = groups.setdefault(tuple(fmt_value(c.get(k)) for k in others), {})
            group[fmt_value(c.get(key))] = results
        compared = [g for g in groups.values() if len(g) > 1]
        if compared and all(len(set(g.values())) == 1 for g in compared):
            out.append(key)
    return out


def cell_label(cell: Row, keys: Iterable[str]) -> str:
    """``budget=2000 ordering=usage``: only the fields that tell cells apart."""
    parts = [f"{k}={fmt_value(cell.get(k))}" for k in keys]
    return " ".join(parts) or "all"


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SkillbenchError(f"{path}: not found (is this a skillbench run directory?)") from None
    except json.JSONDecodeError as exc:
        raise InputError(Location(str(path), exc.lineno), f"invalid JSON: {exc.msg}") from None


def read_rows(path: Path) -> list[Row]:
    """Rows of a ``results.jsonl``; a bad line is an error naming file and line."""
    rows: list[Row] = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(Location(str(path), lineno), f"invalid JSON: {exc.msg}") from None
            if not isinstance(row, dict):
                raise InputError(Location(str(path), lineno), "expected a JSON object")
            rows.append(row)
    return rows


def load_run(path: str | Path, *, rows: bool = True) -> Run:
    """Load a run directory; ``summary.json`` is required, results and manifest are optional."""
    root = Path(path)
    if not root.is_dir():
        raise SkillbenchError(f"{root}: not a directory (expected a skillbench run directory)")
    summary = _read_json(root / "summary.json")
    if not isinstance(summary, dict) or not isinstance(summary.get("cells"), list):
        raise InputError(Location(str(root / "summary.json"), field="cells"), "missing cell list")
    results = root / "results.jsonl"
    manifest = root / "manifest.json"
    return Run(
        path=root,
        summary=summary,
        rows=read_rows(results) if rows and results.is_file() else [],
        manifest=_read_json(manifest) if manifest.is_file() else {},
    )


def skill_descriptions(run: Run) -> dict[str, str]:
    """Skill name → description when the run recorded its catalog (summary or manifest).

    Accepts ``skills: {name: description}``, ``skills: [{name, description}]`` or
    ``catalogs: {variant: skills}`` in either file; empty when none is present.
    """
    out: dict[str, str] = {}

    def take(skills: Any) -> None:
        if isinstance(skills, Mapping):
            for name, value in skills.items():
                desc = value.get("description") if isinstance(value, Mapping) else value
                if isinstance(desc, str):
                    out.setdefault(str(name), desc)
        elif isinstance(skills, list):
            for item in skills:
                if isinstance(item, Mapping) and isinstance(item.get("description"), str):
                    out.setdefault(str(item.get("name")), item["description"])

    for source in (run.summary, run.manifest):
        take(source.get("skills"))
        catalogs = source.get("catalogs")
        if isinstance(catalogs, Mapping):
            for variant in catalogs.values():
                take(variant.get("skills") if isinstance(variant, Mapping) else variant)
    return out
