"""Per-skill views: which skills are confused, and what an invocation costs inline vs fork."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.report._doc import Figure, Table
from skillbench.report._figure import COLORS, finite, png, pyplot, thousands
from skillbench.report._run import Run, cell_label


def is_skill(label: str) -> bool:
    """Confusion labels that are skills (not ``none``, ``<error>``, ``<malformed>``)."""
    return label != "none" and not label.startswith("<")


def confusion_totals(
    run: Run, cells: Sequence[Mapping[str, Any]] | None = None
) -> dict[tuple[str, str], int]:
    """(expected, chosen) counts summed over ``cells`` (default: all); ``none`` = no skill."""
    out: dict[tuple[str, str], int] = defaultdict(int)
    for cell in run.cells if cells is None else cells:
        for exp, row in (cell.get("confusion") or {}).items():
            for chosen, count in row.items():
                out[(exp, chosen)] += int(count)
    return dict(out)


def confusion_counts(
    run: Run, cells: Sequence[Mapping[str, Any]] | None = None
) -> dict[tuple[str, str], int]:
    """Off-diagonal (expected, chosen) counts over ``cells`` (default: all): the confusions."""
    return {pair: n for pair, n in confusion_totals(run, cells).items() if pair[0] != pair[1] and n}


def _label_order(name: str) -> tuple[bool, bool, str]:
    return (name == "none", name.startswith("<"), name.lower())


def confusion_heatmap(run: Run, top: int = 12) -> Figure:
    title = "Most confused skills (expected → chosen)"
    pairs = sorted(confusion_counts(run).items(), key=lambda kv: (-kv[1], kv[0]))
    if not pairs:
        return Figure("confusion", title, None, "Skipped: no confusions recorded.")
    # skill-vs-skill mix-ups first (what descriptions can fix), then misses and false triggers
    pairs.sort(key=lambda kv: not all(is_skill(s) for s in kv[0]))
    labels: list[str] = ["none"]
    for (exp, chosen), _ in pairs:
        for name in (exp, chosen):
            if name not in labels and len(labels) < top:
                labels.append(name)
    full = confusion_totals(run)
    row_total: dict[str, int] = defaultdict(int)
    for (exp, _), n in full.items():
        row_total[exp] += n
    # a skill only ever chosen gets no row, one only ever expected no column
    rows = sorted((e for e in labels if row_total[e]), key=_label_order)
    cols = sorted(
        (c for c in labels if any(full.get((e, c)) for e in rows)),
        key=_label_order,
    )
    import numpy as np

    grid = np.array([[full.get((e, c), 0) for c in cols] for e in rows], dtype=float)
    rate = grid / np.array([[row_total[e]] for e in rows], dtype=float)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(1.6 + 0.5 * len(cols) + 1.5, 1.4 + 0.42 * len(rows)))
    im = ax.imshow(rate, cmap="Blues", vmin=0, vmax=1, aspect="auto")
    ax.grid(False)
    ax.set_xticks(range(len(cols)), cols, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel("chosen")
    ax.set_ylabel("expected")
    for i in range(len(rows)):
        for j in range(len(cols)):
            if grid[i, j]:
                colour = "white" if rate[i, j] > 0.55 else "#1f2328"
                ax.text(
                    j, i, f"{grid[i, j]:,.0f}", ha="center", va="center", fontsize=8, color=colour
                )
    fig.colorbar(
        im, ax=ax, fraction=0.046, pad=0.04, label="share of the expected skill's decisions"
    )
    fig.tight_layout()
    return Figure(
        "confusion",
        title,
        png(fig),
        "Decisions summed over all cells; colour: the share of all decisions on requests "
        "expecting that row's skill. `none` = no skill (chosen: a miss; expected: a request "
        "needing no skill). The skills in the most frequent confusions are shown.",
    )


def _per_skill_costs(run: Run) -> list[Mapping[str, Any]]:
    """Each cell's ``cost.per_skill`` mapping (skill name → figures), when recorded."""
    out = []
    for cell in run.distinct()[0]:
        cost = cell.get("cost")
        skills = cost.get("per_skill") if isinstance(cost, Mapping) else None
        if isinstance(skills, Mapping):
            out.append(skills)
    return out


def _break_even(run: Run) -> dict[str, float | None]:
    """Per-skill break-even turns from ``cost.per_skill``; None: fork is never cheaper."""
    out: dict[str, float | None] = {}
    for skills in _per_skill_costs(run):
        for name, entry in skills.items():
            if isinstance(entry, Mapping) and "break_even_turns" in entry:
                value = entry["break_even_turns"]
                out.setdefault(str(name), float(value) if finite(value) else None)
    return out


def _token_sums(run: Run) -> dict[str, list[float]]:
    """Skill → [inline tokens, fork tokens, invocations] summed over invocations.

    From the results rows; from ``cost.per_skill`` totals (``invocations``,
    ``inline_tokens``, ``fork_tokens``) when the rows carry no cost.
    """
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for r in run.rows:
        inline, fork = r.get("inline_tokens"), r.get("fork_tokens")
        if r.get("chosen") and finite(inline) and finite(fork):
            s = sums[str(r["chosen"])]
            s[0] += inline
            s[1] += fork
            s[2] += 1
    if sums:
        return sums
    for skills in _per_skill_costs(run):
        for name, e in skills.items():
            figures = [e.get(k) for k in ("inline_tokens", "fork_tokens", "invocations")]
            if isinstance(e, Mapping) and all(map(finite, figures)) and figures[2]:
                s = sums[str(name)]
                for i, value in enumerate(figures):
                    s[i] += value
    return sums


def _tick(name: str, count: int, breaks: Mapping[str, float | None]) -> str:
    text = f"{name} ({count:,}×)"
    if name not in breaks:
        return text
    turns = breaks[name]
    return text + (" · fork never cheaper" if turns is None else f" · fork from {turns:g} turns")


def inline_vs_fork(run: Run, top: int = 15) -> Figure:
    title = "Inline vs fork tokens per invoked skill"
    sums = _token_sums(run)
    if not sums:
        return Figure("inline_vs_fork", title, None, "Skipped: no cost data in the results.")
    names = sorted(sums, key=lambda k: (-sums[k][2], k))[:top][::-1]
    inline = [sums[n][0] / sums[n][2] for n in names]
    fork = [sums[n][1] / sums[n][2] for n in names]
    breaks = _break_even(run)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 1.4 + 0.36 * len(names)))
    ys = range(len(names))
    ax.barh([y + 0.2 for y in ys], inline, height=0.38, color=COLORS[0], label="inline")
    ax.barh([y - 0.2 for y in ys], fork, height=0.38, color=COLORS[4], label="fork")
    ax.set_yticks(list(ys), [_tick(n, int(sums[n][2]), breaks) for n in names])
    ax.set_xlabel("mean tokens per invocation, over the session's remaining turns")
    thousands(ax.xaxis)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, fontsize=9)
    fig.tight_layout()
    caption = (
        f"The {len(names)} most invoked skills; ×: invocations over all cells. "
        "Inline: the body re-sent on every remaining turn; fork: a sub-agent run plus its "
        "summary carried (docs/cost.md)."
    )
    if breaks:
        caption += " “Fork from N turns”: the remaining turns from which fork is cheaper."
    return Figure("inline_vs_fork", title, png(fig), caption)


COST_COLUMNS = (
    ("invocations", "invocations"),
    ("listing_tokens", "listing tokens"),
    ("inline_tokens", "inline tokens"),
    ("fork_tokens", "fork tokens"),
    ("declared_tokens", "declared tokens"),
    ("waste_tokens", "wasted tokens"),
    ("dollars", "$ listing + declared"),
)
"""Columns of the cost table (``cost`` keys of a summary cell, docs/cost.md)."""


def cost_table(run: Run) -> Table | None:
    """Token cost per cell from the summary's ``cost`` objects; None when no cell has one."""
    cells, keys = run.distinct()
    costed = [c for c in cells if isinstance(c.get("cost"), Mapping)]
    if not costed:
        return None
    columns = [(k, h) for k, h in COST_COLUMNS if any(k in c["cost"] for c in costed)]

    def fmt(key: str, value: Any) -> str:
        if not finite(value):
            return "–"
        return f"{value:,.2f}" if key == "dollars" else f"{value:,.0f}"

    rows = [[cell_label(c, keys), *(fmt(k, c["cost"].get(k)) for k, _ in columns)] for c in costed]
    numeric = frozenset(range(1, len(columns) + 1))
    return Table(
        ["cell", *(h for _, h in columns)],
        rows,
        numeric=numeric,
        collapsed=f"Show the token cost of {len(rows)} cells",
    )
