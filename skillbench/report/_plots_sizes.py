"""The catalog-size plot: accuracy and false invocations against size, knees marked."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from skillbench.report._doc import Figure
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
from skillbench.report._sizes import SizeLine, catalog_size

PANELS = (("accuracy", "accuracy ↑"), ("false_invocation_rate", "false invocation rate ↓"))


def size_figure(lines: Sequence[SizeLine]) -> Figure:
    """One colour per line of the grid, one dash per distractor mode; a star marks a knee."""
    title = "Accuracy and false invocations vs catalog size"
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 3.6))
    sizes: set[int] = set()
    for i, line in enumerate(lines):
        knees = {k.mode: k.size for k in line.knees}
        for j, (mode, cells) in enumerate(line.cells.items()):
            xs = [catalog_size(c) for c in cells]
            sizes.update(xs)
            style: dict[str, Any] = {
                "color": COLORS[i % len(COLORS)],
                "linestyle": DASHES[j % len(DASHES)],
                "label": mode if line.label == "all" else f"{line.label}, {mode}",
            }
            for ax, (metric, _) in zip(axes, PANELS, strict=True):
                ys = [float(v) if finite(v := c.metric(metric)) else math.nan for c in cells]
                bars = error_bars(ys, [c.interval(metric) for c in cells])
                ax.errorbar(xs, ys, yerr=bars, marker="o", ms=4, lw=1.6, capsize=2, **style)
                knee = knees.get(mode)
                if metric == "accuracy" and knee is not None and knee in xs:
                    at = xs.index(knee)
                    ax.plot(xs[at], ys[at], marker="*", ms=13, color=style["color"], lw=0)
    ticks = sorted(sizes)
    for ax, (_, label) in zip(axes, PANELS, strict=True):
        if ticks[-1] / max(ticks[0], 1) >= 8:
            ax.set_xscale("log")
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(t) for t in ticks])
        ax.minorticks_off()
        ax.set_xlabel("skills in the catalog")
        ax.set_ylabel(label)
    drawn = ", ".join(line.label for line in lines)
    headed(fig, [registry_heading(m) for m, _ in PANELS], f"the lines {drawn}, by catalog size")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=2, fontsize=9, bbox_to_anchor=(0.5, 0.0))
    caption = (
        "Bars: Wilson 95% intervals. Solid: random distractors; dashed: nearest look-alikes. "
        "A star marks each mode's knee (its first accuracy loss beyond noise against the "
        "reference)."
    )
    return Figure("accuracy_vs_catalog_size", title, png(fig), caption)
