"""Per-skill views: which skills are confused, and what an invocation costs inline vs fork."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.cost import CellCost, InvokedSkillCost
from skillbench.report._doc import Figure, Table
from skillbench.report._effects import cells_text, selector_cells
from skillbench.report._figure import COLORS, finite, headed, png, pyplot, thousands
from skillbench.report._run import cell_label, distinct
from skillbench.results import CellFields, Run


def is_skill(label: str) -> bool:
    """Confusion labels that are skills (not ``none``, ``<error>``, ``<malformed>``)."""
    return label != "none" and not label.startswith("<")


def confusion_totals(
    run: Run, cells: Sequence[CellFields] | None = None
) -> dict[tuple[str, str], int]:
    """(expected, chosen) counts summed over ``cells`` (default: the selectors under test,
    baselines left out); ``none`` = no skill. Only decisions whose expected skill was shown
    are in a cell's confusion."""
    out: dict[tuple[str, str], int] = defaultdict(int)
    for cell in selector_cells(run) if cells is None else cells:
        for exp, row in cell.confusion.items():
            for chosen, count in row.items():
                out[(exp, chosen)] += int(count)
    return dict(out)


def confusion_counts(
    run: Run, cells: Sequence[CellFields] | None = None
) -> dict[tuple[str, str], int]:
    """Off-diagonal (expected, chosen) counts over ``cells`` (default: the selectors under
    test): the confusions."""
    return {pair: n for pair, n in confusion_totals(run, cells).items() if pair[0] != pair[1] and n}


CONFUSION_DEFINITION = (
    "confusion: decisions by expected skill (row) and chosen skill (column), over decisions "
    "whose expected skill was shown; colour = share of the row"
)


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
    drawn = cells_text(run, selector_cells(run))
    headed(fig, [CONFUSION_DEFINITION], drawn)
    fig.tight_layout()
    values = {f"{e} → {c}": int(grid[i, j]) for i, e in enumerate(rows) for j, c in enumerate(cols)}
    return Figure(
        "confusion",
        title,
        png(fig),
        f"Decisions summed over {drawn}, counting only those whose expected skill was shown "
        "(the others are under Skills never shown); colour: the share of those decisions on "
        "requests expecting that row's skill. `none` = no skill (chosen: a miss; expected: a "
        "request needing no skill). The skills in the most frequent confusions are shown.",
        {"decisions": {k: n for k, n in values.items() if n}},
    )


def _cell_costs(run: Run) -> list[CellCost]:
    """Each drawn cell's ``cost``, when recorded."""
    cells = selector_cells(run, distinct(run.summary.cells)[0])
    return [cell.cost for cell in cells if cell.cost is not None]


def _per_skill_costs(run: Run) -> list[dict[str, InvokedSkillCost]]:
    """Each drawn cell's ``cost.per_skill`` (skill name → figures), when recorded."""
    return [cost.per_skill for cost in _cell_costs(run)]


def _constants(run: Run) -> str:
    """What the drawn cells' fork constants rest on: measured (by whom) or modelled."""
    said = sorted({cost.fork_constants or "modelled" for cost in _cell_costs(run)})
    return "Fork constants: " + (" / ".join(said) or "modelled") + "."


def _break_even(run: Run) -> dict[str, float | None]:
    """Per-skill break-even turns from ``cost.per_skill``; None: fork is never cheaper."""
    out: dict[str, float | None] = {}
    for skills in _per_skill_costs(run):
        for name, entry in skills.items():
            turns = entry.break_even_turns
            out.setdefault(name, float(turns) if turns is not None else None)
    return out


def _token_sums(run: Run) -> dict[str, list[float]]:
    """Skill → [inline tokens, fork tokens, invocations, invocations where fork was
    cheaper] summed over the invocations of the selectors under test.

    From the results rows; from ``cost.per_skill`` totals (``invocations``,
    ``inline_tokens``, ``fork_tokens``; the cheaper count unknown, NaN) when the rows carry
    no cost.
    """
    drawn = {c.key for c in selector_cells(run)}
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0, 0])
    for r in run.rows:
        inline, fork = r.inline_tokens, r.fork_tokens
        if r.chosen and inline is not None and fork is not None and r.key in drawn:
            s = sums[r.chosen]
            s[0] += inline
            s[1] += fork
            s[2] += 1
            s[3] += fork < inline
    if sums:
        return sums
    for skills in _per_skill_costs(run):
        for name, e in skills.items():
            if e.invocations:
                s = sums[name]
                for i, value in enumerate((e.inline_tokens, e.fork_tokens, e.invocations)):
                    s[i] += value
                s[3] = math.nan
    return sums


def _tick(name: str, sums: Sequence[float], breaks: Mapping[str, float | None]) -> str:
    """``name (N×) · fork cheaper for 23% (from 4 turns left)``: how often fork won in these
    invocations, beside the remaining turns from which it wins (the median break-even).

    The break-even alone reads as advice to fork even when most invocations ended sooner,
    which is why the bars (means over these invocations) may favour inline beside it.
    """
    text = f"{name} ({int(sums[2]):,}×)"
    share = sums[3] / sums[2]
    turns = breaks.get(name)
    if name in breaks and turns is None:
        return text + " · fork never cheaper"
    if math.isnan(share):
        return text if turns is None else text + f" · fork cheaper from {turns:g} turns left"
    after = "" if turns is None else f" (from {turns:g} turns left)"
    return text + f" · fork cheaper for {share:.0%}{after}"


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
    ax.set_yticks(list(ys), [_tick(n, sums[n], breaks) for n in names])
    ax.set_xlabel("mean tokens per invocation, over the session's remaining turns")
    thousands(ax.xaxis)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, fontsize=9)
    drawn = cells_text(run, selector_cells(run))
    headed(fig, [COST_DEFINITION], drawn)
    fig.tight_layout()
    caption = (
        f"The {len(names)} most invoked skills; ×: invocations over {drawn}. "
        "Inline: the body re-sent on every remaining turn; fork: a sub-agent run plus its "
        "summary carried (docs/cost.md). “Fork cheaper for P%”: the share of these "
        "invocations where fork used fewer tokens; “from N turns left”: the median "
        "remaining turns from which fork is cheaper, so a skill invoked mostly near the end "
        "of its sessions can have a break-even and still a longer fork bar. " + _constants(run)
    )
    values = {
        "inline": dict(zip(names, inline, strict=True)),
        "fork": dict(zip(names, fork, strict=True)),
        "fork_cheaper_share": {n: sums[n][3] / sums[n][2] for n in names},
    }
    return Figure("inline_vs_fork", title, png(fig), caption, values)


COST_DEFINITION = (
    "inline_tokens / fork_tokens: mean tokens an invocation adds inline (body × remaining "
    "turns) or forked (sub-agent run + summary × remaining turns)"
)

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
    cells, keys = distinct(run.summary.cells)
    costs = [(c, c.cost) for c in cells if c.cost is not None]
    if not costs:
        return None

    def fmt(key: str, value: Any) -> str:
        if not finite(value):
            return "–"
        return f"{value:,.2f}" if key == "dollars" else f"{value:,.0f}"

    rows = [
        [cell_label(c, keys), *(fmt(k, getattr(cost, k)) for k, _ in COST_COLUMNS)]
        for c, cost in costs
    ]
    numeric = frozenset(range(1, len(COST_COLUMNS) + 1))
    return Table(
        ["cell", *(h for _, h in COST_COLUMNS)],
        rows,
        numeric=numeric,
        collapsed=f"Show the token cost of {len(rows)} cells",
    )
