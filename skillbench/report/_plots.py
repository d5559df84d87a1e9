"""The report's plots, each answering one question; matplotlib (Agg) is imported lazily.

Every function returns a :class:`Figure`; when the data cannot answer the question (one budget,
no cost data …) the figure has no image and its caption says why.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.metrics import METRICS, wilson
from skillbench.report._doc import Figure
from skillbench.report._effects import cells_text, is_baseline, kind, selector_cells
from skillbench.report._figure import (
    COLORS,
    DASHES,
    error_bars,
    finite,
    headed,
    png,
    pyplot,
    registry_heading,
)
from skillbench.report._plots_skills import confusion_heatmap, inline_vs_fork
from skillbench.report._plots_timeline import timeline_by_half_life
from skillbench.report._run import cell_label, distinct, fmt_value, inert_keys, varying_keys
from skillbench.results import CellFields, Run
from skillbench.types import CELL_FIELDS

Cell = CellFields
Style = dict[str, Any]


def _ci(cell: Cell, metric: str) -> tuple[float, float]:
    ci = cell.interval(metric) or (None, None)
    low, high = (float(v) if finite(v) else math.nan for v in ci)
    return low, high


def _styled(groups: Mapping[str, Cell], keys: Sequence[str]) -> dict[str, Style]:
    """A style per group: colour by the first key, dashes by the rest.

    ``groups`` maps each label to one representative cell; lines that coincide stay tellable
    apart.
    """
    reps = sorted(groups.items())
    firsts = list(dict.fromkeys(cell_label(c, keys[:1]) for _, c in reps))
    rests = list(dict.fromkeys(cell_label(c, keys[1:]) for _, c in reps))
    return {
        label: {
            "color": COLORS[firsts.index(cell_label(c, keys[:1])) % len(COLORS)],
            "linestyle": DASHES[rests.index(cell_label(c, keys[1:])) % len(DASHES)],
        }
        for label, c in reps
    }


def _drawn(run: Run) -> tuple[list[Cell], list[str]]:
    """The cells budget plots draw (selectors under test, inert fields held) and the key
    fields that tell them apart."""
    cells, keys = distinct(run.summary.cells)
    cells = selector_cells(run, cells)
    return cells, [k for k in keys if k in varying_keys(cells)]


def _series(run: Run, listing_only: bool = False) -> dict[str, tuple[Style, list[Cell]]]:
    """Cells with a numeric budget, one line per combination of the other telling fields.

    ``listing_only`` drops the selector: for a rate the listing alone decides (coverage),
    every selector's line would be drawn on top of the others, hidden but in the legend.
    """
    cells, keys = _drawn(run)
    keys = [k for k in keys if k != "budget" and not (listing_only and k == "selector")]
    lines: dict[str, list[Cell]] = defaultdict(list)
    for cell in cells:
        label = cell_label(cell, keys)
        budgets = {c.budget for c in lines[label]}
        if finite(cell.budget) and cell.budget not in budgets:
            lines[label].append(cell)
    lines = {label: cs for label, cs in lines.items() if cs}
    styles = _styled({label: cs[0] for label, cs in lines.items()}, keys)
    return {
        label: (styles[label], sorted(cs, key=lambda c: c.budget or 0))
        for label, cs in sorted(lines.items())
    }


def _budgets(run: Run) -> list[Any]:
    return sorted({c.budget for c in run.summary.cells if finite(c.budget)})


def _line_with_band(
    ax: Any, cells: Sequence[Cell], metric: str, **kw: Any
) -> list[tuple[Any, float]]:
    """Draw ``metric`` over the budgets of ``cells``; returns the (budget, value) points."""
    xs = [c.budget for c in cells]
    ys = [float(v) if finite(v := c.metric(metric)) else math.nan for c in cells]
    lows, highs = zip(*(_ci(c, metric) for c in cells), strict=True)
    ax.plot(xs, ys, marker="o", ms=4, lw=1.8, **kw)
    ax.fill_between(xs, lows, highs, color=kw.get("color"), alpha=0.08, lw=0)
    return list(zip(xs, ys, strict=True))


def _budget_axis(ax: Any, budgets: Sequence[Any]) -> None:
    if budgets[-1] / max(budgets[0], 1) >= 8:
        ax.set_xscale("log")
    ax.set_xticks(budgets)
    ax.set_xticklabels([f"{b:,}" for b in budgets], rotation=30 if len(budgets) > 6 else 0)
    ax.minorticks_off()
    ax.set_xlabel("listing budget (characters)")


def _legend(fig: Any, ax: Any, n: int) -> None:
    """One legend below the axes, outside the data."""
    if n > 1:
        handles, labels = ax.get_legend_handles_labels()
        fig.legend(
            handles,
            labels,
            loc="upper center",
            ncol=min(n, 2 if max(map(len, labels)) > 34 else 3),
            fontsize=9,
            bbox_to_anchor=(0.5, 0.0),
            handlelength=2.6,
        )


def _lines_caption(run: Run, listing_only: bool = False) -> str:
    keys = [k for k in _drawn(run)[1] if k != "budget" and not (listing_only and k == "selector")]
    text = "Bands: Wilson 95% intervals. One line per " + (", ".join(keys) or "run") + "."
    drawn = _drawn(run)[0]
    if len(drawn) < len(distinct(run.summary.cells)[0]):
        text += " Baselines (oracle, never, random) are in the tables, not drawn."
    inert = inert_keys(run.summary.cells)
    if inert:
        first = run.summary.cells[0]
        held = ", ".join(f"{k}={fmt_value(getattr(first, k))}" for k in inert)
        text += f" {', '.join(inert)} changed no rate: shown at {held} only."
    return text


BUDGET_PANELS = ("accuracy", "false_invocation_rate")
"""The metrics of the accuracy-vs-budget plot, by their registry names (the tables' names)."""


def accuracy_vs_budget(run: Run) -> Figure:
    title = "Accuracy and false invocation rate vs budget"
    budgets = _budgets(run)
    if len(budgets) < 2:
        return Figure("accuracy_vs_budget", title, None, "Skipped: the run has one budget.")
    plt = pyplot()
    lines = _series(run)
    panels = [m for m in BUDGET_PANELS if any(finite(c.metric(m)) for c in run.summary.cells)]
    fig, axes = plt.subplots(1, len(panels), figsize=(5.25 * len(panels), 4.2), squeeze=False)
    values: dict[str, dict[str, list[tuple[Any, float]]]] = {m: {} for m in panels}
    for ax, metric in zip(axes[0], panels, strict=True):
        for label, (style, cells) in lines.items():
            values[metric][label] = _line_with_band(ax, cells, metric, label=label, **style)
        ax.set_ylabel(metric)
        ax.set_title(metric, fontsize=10)
        _budget_axis(ax, budgets)
        ax.set_ylim(bottom=0, top=1.02 if METRICS.get(metric).higher_is_better else None)
    headed(fig, [registry_heading(m) for m in panels], cells_text(run, _drawn(run)[0]))
    fig.tight_layout()
    _legend(fig, axes[0][0], len(lines))
    return Figure("accuracy_vs_budget", title, png(fig), _lines_caption(run), values)


def coverage_vs_budget(run: Run) -> Figure:
    title = "Coverage vs budget: how often the expected skill was shown"
    budgets = _budgets(run)
    if len(budgets) < 2:
        return Figure("coverage_vs_budget", title, None, "Skipped: the run has one budget.")
    if not any(finite(c.metric("coverage")) for c in run.summary.cells):
        return Figure("coverage_vs_budget", title, None, "Skipped: no coverage in the summary.")
    plt = pyplot()
    shared = _selectors_share_coverage(run)
    lines = _series(run, listing_only=shared)
    fig, ax = plt.subplots(figsize=(7.5, 4))
    values = {
        label: _line_with_band(ax, cells, "coverage", label=label, **style)
        for label, (style, cells) in lines.items()
    }
    ax.set_ylabel("coverage")
    ax.set_ylim(0, 1.02)
    _budget_axis(ax, budgets)
    headed(fig, [registry_heading("coverage")], cells_text(run, _drawn(run)[0]))
    fig.tight_layout()
    _legend(fig, ax, len(lines))
    caption = (
        "Positives: requests that expect a skill. "
        + ("Selectors shown the same listings share one line. " if shared else "")
        + _lines_caption(run, listing_only=shared)
    )
    return Figure("coverage_vs_budget", title, png(fig), caption, {"coverage": values})


def _selectors_share_coverage(run: Run) -> bool:
    """Every selector has the same coverage as the others on the same listing setting (false
    when usage recorded each selector's own choices, so listings differ between selectors)."""
    seen: dict[tuple[Any, ...], Any] = {}
    for cell in run.summary.cells:
        key = tuple(getattr(cell, k) for k in CELL_FIELDS if k != "selector")
        if seen.setdefault(key, cell.metric("coverage")) != cell.metric("coverage"):
            return False
    return True


def position_bins(largest: int) -> list[tuple[int, int]]:
    """Position ranges: single positions up to 9, then doubling ranges (10–19, 20–39 …).

    Far positions are rare per cell; pooling them keeps each point's interval readable.
    """
    if largest < 10:
        return [(p, p) for p in range(largest + 1)]
    bins = [(0, 0), (1, 1), (2, 2), (3, 4), (5, 9)]
    low = 10
    while low <= largest:
        bins.append((low, 2 * low - 1))
        low *= 2
    return bins


MOVING = ("rotate", "random")
"""Orderings that place skills independently of what they are: only there can a position
effect be told from the skills that happen to sit at each position."""
INDEPENDENT = frozenset({"embedding", "lexical", "hybrid"})
"""Selectors that score each entry on its own: the order cannot reach their decision."""


def _moves(cell: Cell) -> bool:
    return cell.ordering.startswith(MOVING)


def accuracy_by_position(run: Run) -> Figure:
    title = "Recall by the expected skill's position in the listing"
    cells = [c for c in run.summary.cells if _moves(c) and not is_baseline(run, c)]
    if not cells:
        return Figure(
            "by_position",
            title,
            None,
            "Omitted: no cell uses an ordering that moves skills independently of what they "
            "are (`rotate`, `random`). Under `usage` or `alpha` each position holds the "
            "popular or the alphabetically early skills, so recall by position would measure "
            "those skills, not position bias. Add `rotate:N` or `random` to `orderings` to "
            "measure it.",
        )
    _, telling = distinct(run.summary.cells)
    keys = [k for k in ("selector", "ordering") if k in telling]
    counts: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    reps: dict[str, Cell] = {}
    for cell in cells:
        label = cell_label(cell, keys)
        for pos, entry in cell.by_position.items():
            n, accuracy = entry.n, entry.accuracy
            if n and finite(accuracy):
                slot = counts[label][int(pos)]
                slot[0] += round(accuracy * n)  # the success count, exact
                slot[1] += n
                reps.setdefault(label, cell)
    positions = {p for per in counts.values() for p in per}
    if len(positions) < 2:
        return Figure("by_position", title, None, "Skipped: fewer than two positions observed.")
    bins = position_bins(max(positions))
    styles = _styled(reps, keys)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 3.8))
    dodge = 0.08 if len(counts) > 1 else 0.0
    names = [str(lo) if lo == hi else f"{lo}–{hi}" for lo, hi in bins]
    values: dict[str, list[tuple[str, float]]] = {}
    for i, (label, per) in enumerate(sorted(counts.items())):
        pooled = [[sum(per[p][j] for p in per if lo <= p <= hi) for j in (0, 1)] for lo, hi in bins]
        xs = [b for b, (_, n) in enumerate(pooled) if n]
        ys = [pooled[b][0] / pooled[b][1] for b in xs]
        values[label] = [(names[b], y) for b, y in zip(xs, ys, strict=True)]
        err = error_bars(ys, [wilson(*pooled[b]) for b in xs])
        shift = (i - (len(counts) - 1) / 2) * dodge
        ax.errorbar(
            [x + shift for x in xs],
            ys,
            yerr=err,
            marker="o",
            ms=4,
            lw=1.4,
            capsize=2,
            alpha=0.9,
            label=label,
            **styles[label],
        )
    ax.set_xticks(range(len(bins)), names)
    ax.set_xlabel("0-based position of the expected skill among the shown entries")
    ax.set_ylabel("recall_when_shown")
    ax.set_ylim(0, 1.05)
    headed(fig, [registry_heading("recall_when_shown") + ", by position"], cells_text(run, cells))
    fig.tight_layout()
    _legend(fig, ax, len(counts))
    caption = (
        "Requests whose expected skill was shown, in cells whose ordering moves skills "
        f"({', '.join(sorted({c.ordering for c in cells}))}), pooled over the "
        "other grid fields; error bars are Wilson 95% intervals. A line that falls with "
        "position is position bias."
    )
    blind = sorted({c.selector for c in cells if kind(run, c) in INDEPENDENT})
    if blind:
        caption += (
            f" {', '.join(f'`{b}`' for b in blind)} score each entry on its own: order cannot "
            "reach their decisions, so their lines should be flat."
        )
    return Figure("by_position", title, png(fig), caption, {"recall_when_shown": values})


PLOTS = (
    accuracy_vs_budget,
    coverage_vs_budget,
    timeline_by_half_life,
    accuracy_by_position,
    confusion_heatmap,
    inline_vs_fork,
)


def render_plots(run: Run) -> list[Figure]:
    """Every plot of the report, in reading order."""
    return [plot(run) for plot in PLOTS]
