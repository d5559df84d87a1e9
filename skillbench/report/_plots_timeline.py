"""Accuracy over the replay timeline: one panel per selector, one line per half-life.

The half-life only acts through the usage ordering, so the plot reads usage-ordered cells; a
baseline that ignores descriptions (``never``, ``random``) gets no panel when others exist.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from skillbench.report._doc import Figure
from skillbench.report._effects import cells_text
from skillbench.report._figure import headed, png, pyplot, registry_heading
from skillbench.report._run import (
    BASELINES,
    ORACLE,
    half_life_order,
    inert_keys,
    rows_by_cell,
    selector_type,
)
from skillbench.results import ResultRow, Run
from skillbench.types import CORRECT, CellKey

MAX_PANELS = 4
"""Selectors drawn in their own panel; more would make each too small to read."""

Decision = tuple[str, str, int]
"""(time, request id, repeat): one decision's place in the replay."""


def _rolling(values: Sequence[float], window: int) -> list[float]:
    """Means of every full window (a partial first window would be all noise)."""
    out, total = [], 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        if i >= window - 1:
            out.append(total / window)
    return out


def _scores(rows: Sequence[ResultRow]) -> dict[Decision, float]:
    return {(r.at or "", r.request_id, r.repeat): float(r.outcome in CORRECT) for r in rows}


def _days(decisions: Sequence[Decision]) -> list[float] | None:
    """Days since the first decision, or None when some time is missing or unreadable."""
    try:
        times = [datetime.fromisoformat(at) for at, _, _ in decisions]
    except ValueError:
        return None
    start = times[0]
    return [(t - start).total_seconds() / 86_400 for t in times]


def _panels(run: Run) -> tuple[dict[str, dict[CellKey, list[ResultRow]]], bool]:
    """Selector → its usage-ordered cells (all cells when none is usage-ordered), and whether
    cells of other orderings were left out."""
    by_cell = rows_by_cell(run.rows)
    usage = {k: v for k, v in by_cell.items() if k.ordering.startswith("usage")}
    panels: dict[str, dict[CellKey, list[ResultRow]]] = defaultdict(dict)
    for key, rows in (usage or by_cell).items():
        panels[key.selector][key] = rows
    informative = {
        s: c for s, c in panels.items() if selector_type(run, s) not in BASELINES | {ORACLE}
    }
    chosen = dict(sorted((informative or panels).items())[:MAX_PANELS])
    return chosen, bool(usage) and len(usage) < len(by_cell)


def _colors(labels: Sequence[str]) -> dict[str, tuple[Any, str]]:
    """Short to long half-lives along a sequential map; ``inf`` (raw counts) dark and dashed."""
    from matplotlib import colormaps

    finite = [h for h in labels if half_life_order(h)[0] != float("inf")]
    cmap = colormaps["viridis"]
    out: dict[str, tuple[Any, str]] = {
        h: (cmap(0.9 * i / max(1, len(finite) - 1)), "-") for i, h in enumerate(finite)
    }
    for h in labels:
        out.setdefault(h, ("#444444", "--"))
    return out


def timeline_by_half_life(run: Run) -> Figure:
    title = "Accuracy over the replay timeline, by half-life"
    if not run.rows:
        return Figure("timeline", title, None, "Skipped: results.jsonl is missing.")
    if "half_life" in inert_keys(run.summary.cells):
        return Figure(
            "timeline", title, None, "Skipped: the half-life changed no decision in this run."
        )
    panels, left_out = _panels(run)
    data = []
    for selector, cells in panels.items():
        scores = {key: _scores(rows) for key, rows in cells.items()}
        shared = sorted(set.intersection(*(set(s) for s in scores.values())))
        if len(shared) >= 2:
            data.append((selector, scores, shared))
    if not data:
        return Figure("timeline", title, None, "Skipped: fewer than two shared decisions.")
    labels = sorted({key.half_life for _, scores, _ in data for key in scores}, key=half_life_order)
    colors = _colors(labels)
    plt = pyplot()
    fig, axes = plt.subplots(
        len(data), 1, figsize=(9, 2.9 * len(data) + 0.6), sharex=True, squeeze=False
    )
    windows, per_line = set(), set()
    values: dict[str, dict[str, list[float]]] = defaultdict(dict)
    for ax, (selector, scores, shared) in zip(axes[:, 0], data, strict=True):
        window = min(len(shared), max(5, len(shared) // 10))
        windows.add(window)
        days = _days(shared)
        xs = days[window - 1 :] if days else list(range(window, len(shared) + 1))
        by_hl: dict[str, list[Mapping[Decision, float]]] = defaultdict(list)
        for key, s in scores.items():
            by_hl[key.half_life].append(s)
        for hl in sorted(by_hl, key=half_life_order):
            sharing = by_hl[hl]
            per_line.add(len(sharing))
            mean = [sum(s[d] for s in sharing) / len(sharing) for d in shared]
            color, dash = colors[hl]
            values[selector][hl] = _rolling(mean, window)
            ax.plot(xs, values[selector][hl], color=color, ls=dash, lw=1.6, label=hl)
        kind = selector_type(run, selector)
        ax.set_title(
            f"selector {selector}" + (" (upper bound)" if kind == "oracle" else ""),
            fontsize=10,
            loc="left",
        )
        ax.set_ylabel("accuracy")
        ax.set_ylim(0, 1.02)
    axes[-1, 0].set_xlabel(
        "days since the first request" if _days(data[0][2]) else "decision in replay order"
    )
    handles, names = axes[0, 0].get_legend_handles_labels()
    drawn = [c for c in run.summary.cells if c.selector in panels]
    headed(
        fig,
        [registry_heading("accuracy") + ", rolling mean by half-life"],
        cells_text(run, drawn),
    )
    fig.tight_layout()
    fig.legend(handles, names, title="half-life", loc="center left", bbox_to_anchor=(1.0, 0.5))
    window_text = " / ".join(str(w) for w in sorted(windows))
    pooled = (
        f" Each line averages {max(per_line)} cells sharing its half-life."
        if max(per_line) > 1
        else ""
    )
    caption = (
        f"Rolling mean of correctness over the last {window_text} decisions, on the requests "
        "every cell of a panel decided (a calibrated selector's train split is left out)."
        + (" Usage-ordered cells only: other orderings ignore the half-life." if left_out else "")
        + pooled
    )
    return Figure("timeline", title, png(fig), caption, {"accuracy": dict(values)})
