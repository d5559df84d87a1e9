"""The report's first lines: the best cell and what each swept field did to it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skillbench.report._doc import Block, Para, Table
from skillbench.report._effects import Effects, is_baseline, kind
from skillbench.report._run import Run, cell_label, fmt_value
from skillbench.types import CELL_FIELDS

Cell = Mapping[str, Any]


def best_cell(run: Run) -> Cell | None:
    """The most accurate cell that is not a baseline (any cell when all are baselines)."""
    scored = [c for c in run.cells if c.get("accuracy") is not None]
    real = [c for c in scored if not is_baseline(run, c)] or scored
    if not real:
        return None
    return max(real, key=lambda c: (c["accuracy"], -(c.get("mean_listing_chars") or 0)))


def _ci(cell: Cell) -> str:
    low, high = cell.get("accuracy_ci") or (None, None)
    return "" if low is None or high is None else f" [{low:.3f}, {high:.3f}]"


def _value(run: Run, cell: Cell, axis: str) -> str:
    value = fmt_value(cell.get(axis))
    if axis == "selector" and is_baseline(run, cell):
        return f"{value} ({kind(run, cell)} baseline)"
    return value


def headline(run: Run, effects: Effects) -> list[Block]:
    """The best cell with its accuracy, then one row per swept field: the best cell against
    each cell that differs from it in that field alone, as a paired difference."""
    best = best_cell(run)
    if best is None:
        return [Para("No cell has an accuracy: nothing to summarise.")]
    keys = run.varying()
    label = cell_label(best, keys)
    out: list[Block] = [
        Para(
            f"**Best cell: {label}**, accuracy **{best['accuracy']:.3f}**{_ci(best)} "
            f"over {best.get('n', 0):,} decisions"
            + (" (baselines excluded)." if any(is_baseline(run, c) for c in run.cells) else ".")
        )
    ]
    rows = []
    for axis in keys:
        twins = [
            c
            for c in run.cells
            if c.get(axis) != best.get(axis)
            and all(c.get(k) == best.get(k) for k in CELL_FIELDS if k != axis)
        ]
        for other in twins:
            effect = effects.effect(axis, other, best)
            if effect is None:
                continue
            verdict = "clear" if effect.clear else "not distinguishable from 0"
            rows.append(
                [
                    axis,
                    f"{_value(run, best, axis)} vs {_value(run, other, axis)}",
                    f"{effect.diff:+.3f}",
                    f"[{effect.ci.low:+.3f}, {effect.ci.high:+.3f}]",
                    f"{effect.n:,}",
                    verdict,
                ]
            )
    if rows:
        out.append(
            Para(
                "Each swept field's effect on the best cell: its accuracy minus that of the "
                "cell differing only in that field, paired over the same requests (95% "
                "bootstrap interval).",
                muted=True,
            )
        )
        header = ["field", "best vs other", "Δ accuracy", "95% interval", "requests", "reading"]
        out.append(Table(header, rows, numeric=frozenset({2, 3, 4})))
    elif keys:
        out.append(Para("No cell differs from the best in one field only.", muted=True))
    else:
        out.append(Para("The run has one cell: no field was swept.", muted=True))
    return out


def headline_text(run: Run) -> str:
    """The headline as plain text (for the terminal after a run): no emphasis, no notes."""
    lines: list[str] = []
    for block in headline(run, Effects(run)):
        if isinstance(block, Para) and not block.muted:
            lines.append(block.text.replace("**", ""))
        elif isinstance(block, Table):
            rows = [list(block.header), *(list(r) for r in block.rows)]
            widths = [max(len(r[i]) for r in rows) for i in range(len(block.header))]
            lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(line.rstrip() for line in lines)
