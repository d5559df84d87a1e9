"""Selecting cells: ``DIR::catalog=base,budget=4000`` and pairing the cells of two selections."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skillbench._errors import SkillbenchError, suggest
from skillbench.report._run import cell_label, fmt_value, sort_value, varying_keys
from skillbench.results import CellFields, Run
from skillbench.types import CELL_FIELDS

SEPARATOR = "::"


@dataclass(frozen=True)
class Selection:
    """A run directory and the ``key=value`` filters choosing some of its cells."""

    path: Path
    filters: Mapping[str, str]

    def __str__(self) -> str:
        if not self.filters:
            return str(self.path)
        return f"{self.path}{SEPARATOR}" + ",".join(f"{k}={v}" for k, v in self.filters.items())


def parse_filters(text: str | None, where: str) -> dict[str, str]:
    """``k=v,k=v`` → dict; keys must be cell key fields."""
    out: dict[str, str] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not value.strip():
            raise SkillbenchError(f"{where}: expected key=value, got {part.strip()!r}")
        if key not in CELL_FIELDS:
            raise SkillbenchError(
                f"{where}: unknown cell key {key!r}{suggest(key, CELL_FIELDS)}; "
                f"keys: {', '.join(CELL_FIELDS)}"
            )
        out[key] = value.strip()
    return out


def parse_selection(text: str, extra: str | None = None, where: str = "selection") -> Selection:
    """``DIR`` or ``DIR::k=v,...``, plus filters from ``--cell-a``-style ``extra``."""
    path, _, filters = text.partition(SEPARATOR)
    merged = parse_filters(filters, where)
    merged.update(parse_filters(extra, where))
    return Selection(Path(path), merged)


def _matches(cell: CellFields, filters: Mapping[str, str]) -> bool:
    for key, want in filters.items():
        have = fmt_value(getattr(cell, key))
        if have != want and not (have == "none" and want.lower() in ("none", "null")):
            return False
    return True


def select_cells(run: Run, sel: Selection) -> list[CellFields]:
    cells = [c for c in run.summary.cells if _matches(c, sel.filters)]
    if not cells:
        options = "; ".join(
            f"{k}: {', '.join(sorted({fmt_value(getattr(c, k)) for c in run.summary.cells}))}"
            for k in sel.filters
        )
        raise SkillbenchError(f"{sel}: no cell matches (values in this run: {options})")
    return cells


CellPair = tuple[str, CellFields, CellFields]


def pair_cells(
    a: Sequence[CellFields],
    b: Sequence[CellFields],
    fixed: set[str],
    names: tuple[str, str] = ("A", "B"),
) -> list[CellPair]:
    """(label, cell A, cell B) pairs: direct for one cell each, else matched on free key fields."""
    if len(a) == 1 and len(b) == 1:
        changes = [
            f"{k} {fmt_value(getattr(a[0], k))} → {fmt_value(getattr(b[0], k))}"
            for k in varying_keys([a[0], b[0]])
        ]
        return [(", ".join(changes) or "same cell", a[0], b[0])]
    free = [k for k in CELL_FIELDS if k not in fixed]

    def index(cells: Sequence[CellFields], name: str) -> dict[tuple[Any, ...], CellFields]:
        out: dict[tuple[Any, ...], CellFields] = {}
        for c in cells:
            key = tuple(getattr(c, k) for k in free)
            if key in out:
                differ = [k for k in CELL_FIELDS if getattr(c, k) != getattr(out[key], k)]
                raise SkillbenchError(
                    f"side {name} has several cells differing only in {', '.join(differ)}: "
                    f"add a filter such as {differ[0]}={fmt_value(getattr(c, differ[0]))}"
                )
            out[key] = c
        return out

    ia, ib = index(a, names[0]), index(b, names[1])
    if ia.keys() != ib.keys():
        only_a = [cell_label(ia[k], free) for k in ia.keys() - ib.keys()]
        only_b = [cell_label(ib[k], free) for k in ib.keys() - ia.keys()]
        parts = [
            f"only in {n}: {'; '.join(sorted(o)[:5])}"
            for n, o in ((names[0], only_a), (names[1], only_b))
            if o
        ]
        raise SkillbenchError("the two sides have different cells (" + "; ".join(parts) + ")")
    label_keys = varying_keys(a) if len(a) > 1 else []
    return [
        (cell_label(ia[k], [f for f in free if f in label_keys]), ia[k], ib[k])
        for k in sorted(ia, key=lambda k: tuple(map(sort_value, k)))
    ]
