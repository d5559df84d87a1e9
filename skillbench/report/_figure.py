"""Shared plotting helpers: lazy matplotlib (Agg), PNG bytes, colours and error bars."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any, TypeGuard

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
"""matplotlib's tab10: distinct hues that survive projectors and common colour blindness."""
DASHES = ["-", "--", ":", "-."]


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend with the report's style."""
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


def png(fig: Any) -> bytes:
    """The figure as PNG bytes; the figure is closed. Its heading (see :func:`headed`) is
    also the PNG's ``Title`` text chunk, so tools that list images can show it."""
    buf = io.BytesIO()
    title = fig.get_suptitle()
    metadata = {"Title": title.replace("\n", " ")} if title else None
    fig.savefig(buf, format="png", bbox_inches="tight", metadata=metadata)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def thousands(axis: Any) -> None:
    """Tick labels with thousands separators (10,000 rather than 10000)."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))


def finite(value: Any) -> TypeGuard[float]:
    """A real, finite number (not a bool, None or NaN)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def error_bars(
    values: Sequence[float], intervals: Sequence[Sequence[float | None] | None]
) -> list[list[float]]:
    """matplotlib ``yerr`` (below, above) from values and their intervals.

    Distances are clamped at 0: an interval computed apart from its value (rounding, or a
    Wilson bound landing 1e-17 past a rate of 0 or 1) must not crash the plot, and a missing
    or NaN bound draws no bar.
    """
    below, above = [], []
    for value, ci in zip(values, intervals, strict=True):
        low, high = ci if ci else (None, None)
        if finite(value) and finite(low) and finite(high):
            below.append(max(0.0, value - low))  # type: ignore[operator]
            above.append(max(0.0, high - value))  # type: ignore[operator]
        else:
            below.append(0.0)
            above.append(0.0)
    return [below, above]


def headed(fig: Any, metrics: Sequence[str], cells: str) -> None:
    """Write each metric's name and definition and the cells drawn at the top of the image,
    so a plot pasted alone (a PR, a chat) still says what it measures and over what."""
    import textwrap

    lines = [w for text in (*metrics, f"cells: {cells}") for w in textwrap.wrap(text, 110)]
    fig.suptitle("\n".join(lines), fontsize=8.5, x=0.01, ha="left", va="top", y=0.995)


def registry_heading(name: str) -> str:
    """``name: definition (direction)`` of a registered metric: what the tables call it."""
    from skillbench.metrics import METRICS

    metric = METRICS.get(name)
    arrow = "higher is better" if metric.higher_is_better else "lower is better"
    return f"{metric.name}: {metric.definition} ({arrow})"
