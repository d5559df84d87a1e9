"""The report's plots, each answering one question; matplotlib (Agg) is imported lazily.

Every function returns a :class:`Figure`; when the data cannot answer the question (one budget,
no cost data …) the figure has no image and its caption says why.
"""

from __future__ import annotations

import io
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.metrics import wilson
from skillbench.report._doc import Figure
from skillbench.report._run import Run, cell_label, fmt_value

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
"""matplotlib's tab10: distinct hues that survive projectors and common colour blindness."""
DASHES = ["-", "--", ":", "-."]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "figure.dpi": 110,
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "legend.frameon": False,
        }
    )
    return plt


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def error_bars(
    values: Sequence[float], intervals: Sequence[Sequence[float | None] | None]
) -> list[list[float]]:
    """matplotlib ``yerr`` (below, above) from values and their intervals.

    Distances are clamped at 0: an interval computed apart from its value (rounding, or
    Wilson's bound landing 1e-17 past a rate of 0 or 1) must not crash the plot, and a
    missing or NaN bound draws no bar.
    """
    below, above = [], []
    for value, ci in zip(values, intervals, strict=True):
        low, high = ci if ci else (None, None)
        ok = _finite(value) and _finite(low) and _finite(high)
        below.append(max(0.0, value - low) if ok else 0.0)  # type: ignore[operator]
        above.append(max(0.0, high - value) if ok else 0.0)  # type: ignore[operator]
    return [below, above]


def _ci(cell: Mapping[str, Any], metric: str) -> tuple[float, float]:
    ci = cell.get(metric + "_ci") or (None, None)
    low, high = (math.nan if v is None else float(v) for v in ci)
    return low, high


def _series(run: Run) -> dict[str, tuple[dict[str, Any], list[Mapping[str, Any]]]]:
    """Cells with a numeric budget, one line per combination of the other varying fields.

    Each line gets a style: colour by the first varying field, dashes by the rest, so lines
    that coincide (e.g. a half-life that does not matter to an ordering) stay tellable apart.
    """
    keys = [k for k in run.varying() if k != "budget"]
    lines: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for cell in run.cells:
        if isinstance(cell.get("budget"), int | float):
            lines[cell_label(cell, keys)].append(cell)
    firsts = list(dict.fromkeys(cell_label(v[0], keys[:1]) for _, v in sorted(lines.items())))
    rests = list(dict.fromkeys(cell_label(v[0], keys[1:]) for _, v in sorted(lines.items())))
    out = {}
    for label, cells in sorted(lines.items()):
        colour = firsts.index(cell_label(cells[0], keys[:1]))
        dash = rests.index(cell_label(cells[0], keys[1:]))
        style = {"color": COLORS[colour % len(COLORS)], "linestyle": DASHES[dash % len(DASHES)]}
        out[label] = (style, sorted(cells, key=lambda c: c["budget"]))
    return out


def _budgets(run: Run) -> list[Any]:
    return sorted({c["budget"] for c in run.cells if isinstance(c.get("budget"), int | float)})


def _line_with_band(ax: Any, cells: Sequence[Mapping[str, Any]], metric: str, **kw: Any) -> None:
    xs = [c["budget"] for c in cells]
    ys = [math.nan if c.get(metric) is None else float(c[metric]) for c in cells]
    lows, highs = zip(*(_ci(c, metric) for c in cells), strict=True)
    ax.plot(xs, ys, marker="o", ms=4, lw=1.8, **kw)
    ax.fill_between(xs, lows, highs, color=kw.get("color"), alpha=0.08, lw=0)


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
            ncol=min(n, 3),
            fontsize=9,
            bbox_to_anchor=(0.5, 0.0),
            handlelength=2.6,
        )


def accuracy_vs_budget(run: Run) -> Figure:
    title = "Accuracy and false invocations vs budget"
    budgets = _budgets(run)
    if len(budgets) < 2:
        return Figure("accuracy_vs_budget", title, None, "Skipped: the run has one budget.")
    plt = _pyplot()
    lines = _series(run)
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 4.2))
    for label, (style, cells) in lines.items():
        _line_with_band(axes[0], cells, "accuracy", label=label, **style)
        _line_with_band(axes[1], cells, "false_invocations_rate", label=label, **style)
    axes[0].set_ylabel("accuracy")
    axes[0].set_title("Accuracy (higher is better)", fontsize=10)
    axes[1].set_ylabel("false invocations / decision")
    axes[1].set_title("False invocations (lower is better)", fontsize=10)
    for ax in axes:
        _budget_axis(ax, budgets)
        ax.set_ylim(bottom=0)
    axes[0].set_ylim(top=1.02)
    fig.tight_layout()
    _legend(fig, axes[0], len(lines))
    caption = "Bands: Wilson 95% intervals. One line per " + (
        ", ".join(k for k in run.varying() if k != "budget") or "run"
    )
    return Figure("accuracy_vs_budget", title, _png(fig), caption + ".")


def coverage_vs_budget(run: Run) -> Figure:
    title = "Coverage vs budget: how often the expected skill was shown"
    budgets = _budgets(run)
    if len(budgets) < 2:
        return Figure("coverage_vs_budget", title, None, "Skipped: the run has one budget.")
    if all(c.get("coverage") is None for c in run.cells):
        return Figure("coverage_vs_budget", title, None, "Skipped: no coverage in the summary.")
    plt = _pyplot()
    lines = _series(run)
    fig, ax = plt.subplots(figsize=(7.5, 4))
    for label, (style, cells) in lines.items():
        _line_with_band(ax, cells, "coverage", label=label, **style)
    ax.set_ylabel("share of positives whose skill was shown")
    ax.set_ylim(0, 1.02)
    _budget_axis(ax, budgets)
    fig.tight_layout()
    _legend(fig, ax, len(lines))
    return Figure("coverage_vs_budget", title, _png(fig), "Bands: Wilson 95% intervals.")


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


def timeline_by_half_life(run: Run) -> Figure:
    title = "Accuracy over the replay timeline, by half-life"
    if not run.rows:
        return Figure("timeline", title, None, "Skipped: results.jsonl is missing.")
    by_cell = run.rows_by_cell()
    by_hl: dict[str, list[list[float]]] = defaultdict(list)
    for key, rows in by_cell.items():
        ordered = sorted(rows, key=lambda r: (str(r.get("at") or ""), r.get("repeat", 0)))
        correct = [float(r.get("outcome") in ("correct_skill", "correct_abstain")) for r in ordered]
        by_hl[fmt_value(key[4])].append(correct)
    length = min(len(s) for seqs in by_hl.values() for s in seqs)
    if length < 2:
        return Figure("timeline", title, None, "Skipped: fewer than two decisions per cell.")
    window = min(length, max(5, length // 10))
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 3.8))
    for i, (hl, seqs) in enumerate(sorted(by_hl.items())):
        mean = [sum(s[j] for s in seqs) / len(seqs) for j in range(length)]
        label = f"half-life {hl} ({len(seqs)} cells)"
        ax.plot(
            range(window, length + 1),
            _rolling(mean, window),
            color=COLORS[i % 8],
            lw=1.6,
            label=label,
        )
    ax.set_xlabel("request in replay order (by request time)")
    ax.set_ylabel(f"accuracy, rolling {window}")
    ax.set_ylim(0, 1.02)
    ax.legend(loc="lower right", fontsize=9)
    fig.tight_layout()
    caption = (
        f"Rolling mean over {window} decisions, averaged over the cells sharing a half-life "
        "(the other grid fields are crossed equally)."
    )
    return Figure("timeline", title, _png(fig), caption)


def accuracy_by_position(run: Run) -> Figure:
    title = "Accuracy by the expected skill's position in the listing"
    counts: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for cell in run.cells:
        for pos, entry in (cell.get("by_position") or {}).items():
            n = int(entry.get("n") or 0)
            acc = entry.get("accuracy")
            if n and _finite(acc):
                slot = counts[fmt_value(cell.get("ordering"))][int(pos)]
                slot[0] += round(acc * n)  # the cell's success count: exact, unlike acc * n
                slot[1] += n
    positions = {p for per in counts.values() for p in per}
    if len(positions) < 2:
        return Figure("by_position", title, None, "Skipped: fewer than two positions observed.")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 3.8))
    dodge = 0.12 if len(counts) > 1 else 0.0
    for i, (ordering, per) in enumerate(sorted(counts.items())):
        xs = sorted(per)
        ys = [per[p][0] / per[p][1] for p in xs]
        err = error_bars(ys, [wilson(*per[p]) for p in xs])
        shift = (i - (len(counts) - 1) / 2) * dodge
        ax.errorbar(
            [x + shift for x in xs],
            ys,
            yerr=err,
            fmt="o-",
            ms=4,
            lw=1.4,
            capsize=2,
            alpha=0.9,
            color=COLORS[i % 8],
            label=f"ordering {ordering}",
        )
    ax.set_xlabel("0-based position of the expected skill among shown entries")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("accuracy")
    ax.set_ylim(0, 1.05)
    if len(counts) > 1:
        ax.legend(loc="lower left", fontsize=9)
    fig.tight_layout()
    return Figure(
        "by_position",
        title,
        _png(fig),
        "Pooled over cells per ordering; error bars are Wilson 95% intervals. A falling line "
        "is position bias.",
    )


def confusion_totals(run: Run) -> dict[tuple[str, str], int]:
    """(expected, chosen) counts summed over cells; ``none`` = no skill."""
    out: dict[tuple[str, str], int] = defaultdict(int)
    for cell in run.cells:
        for exp, row in (cell.get("confusion") or {}).items():
            for chosen, count in row.items():
                out[(exp, chosen)] += int(count)
    return dict(out)


def confusion_counts(run: Run) -> dict[tuple[str, str], int]:
    """Off-diagonal (expected, chosen) counts: the confusions."""
    return {pair: n for pair, n in confusion_totals(run).items() if pair[0] != pair[1] and n}


def confusion_heatmap(run: Run, top: int = 12) -> Figure:
    title = "Most confused skills (expected → chosen)"
    pairs = sorted(confusion_counts(run).items(), key=lambda kv: (-kv[1], kv[0]))
    if not pairs:
        return Figure("confusion", title, None, "Skipped: no confusions recorded.")
    # skill-vs-skill mix-ups first (what descriptions can fix), then misses and false triggers
    pairs.sort(key=lambda kv: "none" in kv[0] or any(s.startswith("<") for s in kv[0]))
    labels: list[str] = ["none"]
    for (exp, chosen), _ in pairs:
        for name in (exp, chosen):
            if name not in labels and len(labels) < top:
                labels.append(name)
    labels = sorted(labels, key=lambda s: (s == "none", s.startswith("<"), s))
    full = confusion_totals(run)
    import numpy as np

    grid = np.array([[full.get((e, c), 0) for c in labels] for e in labels], dtype=float)
    rate = grid / np.maximum(grid.sum(axis=1, keepdims=True), 1)
    plt = _pyplot()
    size = 1.2 + 0.48 * len(labels)
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    im = ax.imshow(rate, cmap="Blues", vmin=0, vmax=1)
    ax.grid(False)
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right")
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("chosen")
    ax.set_ylabel("expected")
    for i in range(len(labels)):
        for j in range(len(labels)):
            if grid[i, j]:
                ax.text(
                    j,
                    i,
                    int(grid[i, j]),
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if rate[i, j] > 0.55 else "#1f2328",
                )
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="share of the expected row")
    fig.tight_layout()
    return Figure(
        "confusion",
        title,
        _png(fig),
        "Counts summed over all cells; colour is the share of the row among the skills shown "
        "here. `none` = no skill (a miss as chosen, a negative request as expected).",
    )


def _break_even(run: Run) -> dict[str, float]:
    """Per-skill break-even turns from the summary's ``cost`` objects, when present."""
    out: dict[str, float] = {}
    for cell in run.cells:
        cost = cell.get("cost")
        if not isinstance(cost, Mapping):
            continue
        skills = cost.get("per_skill") or cost.get("skills") or {}
        for name, entry in skills.items() if isinstance(skills, Mapping) else ():
            if isinstance(entry, Mapping):
                value = entry.get("break_even_turns", entry.get("break_even"))
                if isinstance(value, int | float):
                    out.setdefault(str(name), float(value))
    return out


def inline_vs_fork(run: Run, top: int = 15) -> Figure:
    title = "Inline vs fork tokens per invoked skill"
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for r in run.rows:
        inline, fork = r.get("inline_tokens"), r.get("fork_tokens")
        if r.get("chosen") and isinstance(inline, int | float) and isinstance(fork, int | float):
            s = sums[str(r["chosen"])]
            s[0] += inline
            s[1] += fork
            s[2] += 1
    if not sums:
        return Figure("inline_vs_fork", title, None, "Skipped: no cost data in the results.")
    names = sorted(sums, key=lambda k: -sums[k][2])[:top][::-1]
    inline = [sums[n][0] / sums[n][2] for n in names]
    fork = [sums[n][1] / sums[n][2] for n in names]
    breaks = _break_even(run)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 1.2 + 0.36 * len(names)))
    ys = range(len(names))
    ax.barh([y + 0.2 for y in ys], inline, height=0.38, color=COLORS[0], label="inline")
    ax.barh([y - 0.2 for y in ys], fork, height=0.38, color=COLORS[4], label="fork")
    ax.set_yticks(
        list(ys), [f"{n}  (≥{breaks[n]:g} turns: fork)" if n in breaks else n for n in names]
    )
    ax.set_xlabel("mean tokens per invocation (carried over the session's remaining turns)")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower right", fontsize=9)
    fig.tight_layout()
    caption = "Most invoked skills; means over invocations in all cells."
    if breaks:
        caption += " Labels give the remaining turns from which fork is cheaper (break-even)."
    return Figure("inline_vs_fork", title, _png(fig), caption)


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
