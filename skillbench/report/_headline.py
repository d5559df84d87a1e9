"""The report's first lines: the best cell and what each swept field did to it."""

from __future__ import annotations

from skillbench.metrics import METRICS
from skillbench.report._doc import Block, Para, Table
from skillbench.report._effects import Effects, is_baseline, kind
from skillbench.report._run import cell_label, fmt_value, value, varying_keys
from skillbench.results import CellFields, Run
from skillbench.types import CELL_FIELDS

Cell = CellFields


OBJECTIVE = "accuracy"
"""What "best" means unless told otherwise: the registry metric cells are ranked on."""
BESIDE = "unwanted_invocation_rate"
"""The cost shown beside every gain: a budget that wins accuracy by triggering more often
than it should is not simply better."""


def best_cell(run: Run, objective: str = OBJECTIVE) -> Cell | None:
    """The cell best on ``objective`` among the selectors under test (any cell when all
    are baselines); ties go to the shorter listing."""
    direction = 1 if METRICS.get(objective).higher_is_better else -1
    scored = [c for c in run.summary.cells if c.metric(objective) is not None]
    real = [c for c in scored if not is_baseline(run, c)] or scored
    if not real:
        return None
    return max(real, key=lambda c: (direction * value(c, objective), -(c.mean_listing_chars or 0)))


def _ci(cell: Cell, metric: str) -> str:
    low, high = cell.interval(metric) or (None, None)
    return "" if low is None or high is None else f" [{low:.3f}, {high:.3f}]"


def _twins(run: Run, best: Cell, axis: str) -> list[Cell]:
    """Cells differing from ``best`` in ``axis`` alone."""
    return [
        c
        for c in run.summary.cells
        if getattr(c, axis) != getattr(best, axis)
        and all(getattr(c, k) == getattr(best, k) for k in CELL_FIELDS if k != axis)
    ]


def _delta(effects: Effects, axis: str, other: Cell, best: Cell, metric: str) -> str:
    effect = effects.effect(axis, other, best, metric)
    return "–" if effect is None else f"{effect.diff:+.3f}"


def _named(run: Run, cell: Cell) -> str:
    """A baseline's selector name, with its type when the config renamed it."""
    name, selector_type = cell.selector, kind(run, cell)
    return name if name == selector_type else f"{name} ({selector_type})"


def _baselines(run: Run, best: Cell, objective: str) -> Para | None:
    """The baselines on the best cell's listing, apart: references, not rivals."""
    refs = [c for c in _twins(run, best, "selector") if is_baseline(run, c)]
    parts = [
        f"{_named(run, c)} {value(c, objective):.3f}"
        for c in refs
        if c.metric(objective) is not None
    ]
    if not parts:
        return None
    return Para(
        f"Baselines on the same listing ({objective}): {', '.join(parts)}. The oracle picks "
        "an expected skill whenever one is shown (the most this listing allows); never "
        "always abstains; random picks any shown skill.",
        muted=True,
    )


def headline(run: Run, effects: Effects, objective: str = OBJECTIVE) -> list[Block]:
    """The best cell on ``objective``, then one row per swept field: the best cell against
    each cell of a selector under test that differs from it in that field alone, as a paired
    difference, with the change in unwanted invocations beside it. Baselines follow apart."""
    best = best_cell(run, objective)
    if best is None:
        return [Para(f"No cell has a value for {objective}: nothing to summarise.")]
    keys = varying_keys(run.summary.cells)
    label = cell_label(best, keys)
    beside = (
        f"; {BESIDE} {value(best, BESIDE):.3f}{_ci(best, BESIDE)}"
        if best.metric(BESIDE) is not None and objective != BESIDE
        else ""
    )
    out: list[Block] = [
        Para(
            f"**Best cell on {objective}** (the objective; "
            f"{METRICS.get(objective).definition}): **{label}**, {objective} "
            f"**{value(best, objective):.3f}**{_ci(best, objective)}{beside}, over "
            f"{best.n:,} decisions"
            + (
                " (baselines excluded)."
                if any(is_baseline(run, c) for c in run.summary.cells)
                else "."
            )
        )
    ]
    rows = []
    for axis in keys:
        for other in _twins(run, best, axis):
            if is_baseline(run, other):
                continue
            effect = effects.effect(axis, other, best, objective)
            if effect is None:
                continue
            verdict = "clear" if effect.clear else "not distinguishable from 0"
            rows.append(
                [
                    axis,
                    f"{fmt_value(getattr(best, axis))} vs {fmt_value(getattr(other, axis))}",
                    f"{effect.diff:+.3f}",
                    f"[{effect.ci.low:+.3f}, {effect.ci.high:+.3f}]",
                    _delta(effects, axis, other, best, BESIDE),
                    f"{effect.n:,}",
                    verdict,
                ]
            )
    if rows:
        out.append(
            Para(
                f"Each swept field's effect on the best cell: its {objective} minus that of "
                "the cell differing only in that field, paired over the same requests (95% "
                f"bootstrap interval), and the same difference in {BESIDE} (lower is better). "
                "Only selectors under test are compared.",
                muted=True,
            )
        )
        header = [
            "field",
            "best vs other",
            f"Δ {objective}",
            "95% interval",
            f"Δ {BESIDE}",
            "requests",
            "reading",
        ]
        out.append(Table(header, rows, numeric=frozenset({2, 3, 4, 5})))
    elif keys:
        out.append(
            Para(
                "No other selector-under-test cell differs from the best in one field only.",
                muted=True,
            )
        )
    else:
        out.append(Para("The run has one cell: no field was swept.", muted=True))
    refs = _baselines(run, best, objective)
    if refs is not None:
        out.append(refs)
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
