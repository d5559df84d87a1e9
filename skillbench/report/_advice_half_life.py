"""Half-life advice: which usage half-life to keep, with intervals and paired tests."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from skillbench.metrics import sign_test
from skillbench.report._effects import is_baseline, request_scores
from skillbench.report._run import (
    cell_label,
    distinct,
    fmt_value,
    half_life_order,
    inert_keys,
    rows_by_cell,
    value,
    varying_keys,
)
from skillbench.results import CellFields, Run
from skillbench.types import CellKey

ALPHA = 0.05
"""Family-wise level of the paired tests against the best half-life (Bonferroni)."""

Cell = CellFields


def _p_value(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Exact sign test (McNemar for 0/1 scores) on the requests both cells decided."""
    ids = sorted(a.keys() & b.keys())
    return sign_test([a[i] for i in ids], [b[i] for i in ids]).p_value


def _ci(cell: Cell) -> str:
    low, high = cell.interval("accuracy") or (None, None)
    return "" if low is None or high is None else f" [{low:.3f}, {high:.3f}]"


def _line(label: str, cells: Sequence[Cell], scores: Mapping[CellKey, Mapping[str, float]]) -> str:
    ranked = sorted(cells, key=lambda c: (-value(c, "accuracy"), half_life_order(c.half_life)))
    best, others = ranked[0], ranked[1:]
    alpha = ALPHA / len(others)
    tested = [(c, _p_value(scores[best.key], scores[c.key])) for c in others]
    ties = [(c, p) for c, p in tested if p >= alpha]
    hl = fmt_value(best.half_life)
    head = f"**{label}**: " if label != "all" else ""
    text = f"{head}best half-life **{hl}**, accuracy {value(best, 'accuracy'):.3f}"
    text += _ci(best)
    if ties:
        listed = ", ".join(
            f"{fmt_value(c.half_life)} ({value(c, 'accuracy'):.3f}, p = {p:.2g})" for c, p in ties
        )
        text += f"; not distinguishable from {listed}"
        if len(ties) < len(others):
            text += "; the others are lower"
    else:
        text += "; every other half-life is lower"
    by_duration = sorted(cells, key=lambda c: half_life_order(c.half_life))
    shape = ", ".join(f"{fmt_value(c.half_life)} {value(c, 'accuracy'):.3f}" for c in by_duration)
    return f"{text}. By half-life: {shape}."


def half_life_advice(run: Run) -> list[str]:
    """Per line of the grid (usage-ordered cells), the best half-life and those tied with it;
    empty when the half-life does not vary or changed no rate.

    Ties are half-lives a paired exact sign test on the same requests cannot tell from the
    best (Bonferroni over the comparisons); the accuracy intervals are Wilson 95%.
    """
    if "half_life" not in varying_keys(run.summary.cells) or "half_life" in inert_keys(
        run.summary.cells
    ):
        return []  # nothing to choose; an inert half-life has its note at the top
    cells, keys = distinct(run.summary.cells)
    keys = [k for k in keys if k != "half_life"]
    lines: dict[str, list[Cell]] = defaultdict(list)
    for cell in cells:
        usage = cell.ordering.startswith("usage")
        if usage and not is_baseline(run, cell) and cell.metric("accuracy") is not None:
            lines[cell_label(cell, keys)].append(cell)
    by_cell = rows_by_cell(run.rows)
    scores = {key: request_scores(rows) for key, rows in by_cell.items()}
    ranked = sorted(
        (
            (label, cs)
            for label, cs in lines.items()
            if len(cs) > 1 and all(c.key in scores for c in cs)
        ),
        key=lambda kv: -max(value(c, "accuracy") for c in kv[1]),
    )
    out = [_line(label, cs, scores) for label, cs in ranked]
    if not out:
        return [
            "No usage-ordered cells of a selector that is not a baseline, with results rows, "
            "to compare half-lives on."
        ]
    out.append(
        "Intervals: Wilson 95%. Not distinguishable: a paired exact McNemar test on the same "
        f"requests gives p ≥ {ALPHA} divided by the number of comparisons with the best "
        "(Bonferroni). "
        "Compare two half-lives in full with `skillbench compare RUN::half_life=A "
        "RUN::half_life=B`."
    )
    return out
