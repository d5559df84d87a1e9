"""The "What to do" section: concrete next steps read off the data."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.report._figure import finite
from skillbench.report._plots_skills import confusion_counts, is_skill
from skillbench.report._run import Run, cell_label, fmt_value, skill_descriptions, sort_value

TOLERANCE = 0.01
""""Within one point" of the best accuracy."""
QUOTE_CHARS = 140
"""Longest description quoted in full next to a confusion."""


def _names(names: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def budget_advice(run: Run) -> list[str]:
    """Per line of the budget sweep: the smallest budget within one point of its best accuracy."""
    cells, keys = run.distinct()
    keys = [k for k in keys if k != "budget"]
    series: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for cell in cells:
        if isinstance(cell.get("budget"), int | float) and cell.get("accuracy") is not None:
            series[cell_label(cell, keys)].append(cell)
    budgets = sorted({c["budget"] for cs in series.values() for c in cs})
    if len(budgets) < 2:
        only = ", ".join(f"{b:,}" for b in budgets) or "none"
        return [
            f"Only one budget was run ({only}): sweep several budgets to find the smallest "
            "that keeps accuracy."
        ]
    out = []
    ranked = sorted(series.items(), key=lambda kv: -max(c["accuracy"] for c in kv[1]))
    for label, line in ranked:
        line = sorted(line, key=lambda c: c["budget"])
        best = max(line, key=lambda c: (c["accuracy"], -c["budget"]))
        enough = next(c for c in line if c["accuracy"] >= best["accuracy"] - TOLERANCE)
        head = f"**{label}**: " if label != "all" else ""
        full = enough.get("mean_listing_chars")
        if enough is line[-1] and len(line) > 1 and finite(full) and full < 0.95 * enough["budget"]:
            out.append(
                f"{head}best accuracy {best['accuracy']:.3f} at the largest budget, "
                f"{best['budget']:,}, where the whole listing fits (**{full:,.0f}** characters "
                "on average): a larger budget shows nothing more; the remaining errors are the "
                "selector's."
            )
            continue
        if enough is line[-1] and len(line) > 1:
            before = line[-2]
            out.append(
                f"{head}accuracy still rises at the largest budget, {best['budget']:,} "
                f"({before['accuracy']:.3f} at {before['budget']:,} → {best['accuracy']:.3f}): "
                "try larger budgets."
            )
            continue
        text = (
            f"{head}best accuracy {best['accuracy']:.3f} at budget {best['budget']:,}; "
            f"the smallest budget within 1 point is **{enough['budget']:,}** "
            f"({enough['accuracy']:.3f})"
        )
        saved = best["budget"] - enough["budget"]
        out.append(text + (f", saving {saved:,} characters." if saved > 0 else "."))
    return out


def hidden_skills(run: Run) -> list[str]:
    """Expected skills that no cell at a budget ever showed (hidden whatever the ordering)."""
    if not run.rows:
        return ["Skills never shown: unknown (results.jsonl is missing)."]
    seen: dict[str, set[str]] = defaultdict(set)
    expected: dict[str, set[str]] = defaultdict(set)
    for row in run.rows:
        budget = fmt_value(row.get("budget"))
        for name in row.get("expected") or ():
            expected[budget].add(name)
        if row.get("visible") is True:
            seen[budget].update(row.get("expected") or ())
    out = []
    for budget in sorted(expected, key=lambda b: sort_value(int(b) if b.isdigit() else None)):
        hidden = sorted(expected[budget] - seen[budget], key=str.lower)
        if hidden:
            shown = f"{int(budget):,}" if budget.isdigit() else budget
            out.append(
                f"At budget {shown}: {len(hidden)} of {len(expected[budget])} expected skills "
                f"were never shown: {_names(hidden)}."
            )
    if not out:
        return ["Every expected skill was shown at every budget."]
    return [*out, "Shorten descriptions, raise the budget or order by usage to show them."]


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1].rstrip() + "…"


def confused_pairs(run: Run, top: int = 5) -> list[str]:
    """The skill pairs selectors mix up most, with descriptions when the run recorded them."""
    counts = confusion_counts(run)
    desc = skill_descriptions(run)
    pairs = sorted(
        ((pair, n) for pair, n in counts.items() if all(is_skill(s) for s in pair)),
        key=lambda kv: (-kv[1], kv[0]),
    )[:top]
    out = []
    for (exp, chosen), n in pairs:
        text = f"`{exp}` requests went to `{chosen}` {n:,} times"
        if exp in desc and chosen in desc:
            out.append(f"{text}: “{_quote(desc[exp])}” vs “{_quote(desc[chosen])}”")
        else:
            out.append(text + ".")
    if out:
        out.append("Make these descriptions say when *not* to use the skill (counts: all cells).")
    triggers = sorted(
        ((c, n) for (e, c), n in counts.items() if e == "none" and is_skill(c)),
        key=lambda kv: (-kv[1], kv[0]),
    )[:3]
    if triggers:
        listed = ", ".join(f"`{c}` ({n:,})" for c, n in triggers)
        out.append(f"Most frequent false triggers on requests needing no skill: {listed}.")
    return out or ["No confusions between skills were recorded."]
