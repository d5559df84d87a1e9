"""The "What to do" section: concrete next steps read off the data."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from skillbench.report._figure import finite
from skillbench.report._plots_skills import confusion_counts, is_skill
from skillbench.report._run import (
    BASELINES,
    ORACLE,
    Run,
    cell_label,
    fmt_value,
    skill_descriptions,
    skill_statuses,
    sort_value,
    status_counts,
)

TOLERANCE = 0.01
""""Within one point" of the best accuracy."""
FITS = 0.8
"""A listing this far under its budget left nothing out (no entry is a fifth of a budget)."""
NOT_SHOWN = frozenset({"hallucinated", "error", "malformed"})
"""Outcomes whose ``chosen`` name need not have been in the listing."""
QUOTE_CHARS = 140
"""Longest description quoted in full next to a confusion."""


def _names(names: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _kinds(run: Run, cells: Sequence[Mapping[str, Any]]) -> set[str]:
    return {run.selector_type(c.get("selector")) for c in cells}


def line_head(label: str, oracle: bool) -> str:
    """``**label**: `` leading a line of advice; oracle lines say they are a bound."""
    parts = [f"**{label}**"] if label != "all" else []
    if oracle:
        parts.append("(oracle: the upper bound the listing allows)")
    return " ".join(parts) + ": " if parts else ""


def budget_advice(run: Run) -> list[str]:
    """Per line of the budget sweep: the smallest budget within one point of its best accuracy.

    Baselines that ignore descriptions (``never``, ``random``) get no advice: no budget helps
    them. Oracle lines come last, read as the upper bound each listing allows.
    """
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
    skipped = sorted(
        {
            fmt_value(c.get("selector"))
            for cs in series.values()
            for c in cs
            if run.selector_type(c.get("selector")) in BASELINES
        }
    )
    lines = [(label, cs) for label, cs in series.items() if not _kinds(run, cs) <= BASELINES]
    ranked = sorted(
        lines,
        key=lambda kv: (ORACLE in _kinds(run, kv[1]), -max(c["accuracy"] for c in kv[1])),
    )
    for label, line in ranked:
        line = sorted(line, key=lambda c: c["budget"])
        best = max(line, key=lambda c: (c["accuracy"], -c["budget"]))
        enough = next(c for c in line if c["accuracy"] >= best["accuracy"] - TOLERANCE)
        head = line_head(label, _kinds(run, line) == {ORACLE})
        full = enough.get("mean_listing_chars")
        if (
            enough is line[-1]
            and len(line) > 1
            and finite(full)
            and full <= FITS * enough["budget"]
        ):
            out.append(
                f"{head}best accuracy {best['accuracy']:.3f} at the largest budget, "
                f"{best['budget']:,}, where the listing used only **{full:,.0f}** characters "
                "on average: everything fit, so a larger budget shows nothing more and the "
                "remaining errors are the selector's."
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
    if skipped:
        out.append(
            f"No advice for the {_names(skipped)} "
            + ("baselines: they choose" if len(skipped) > 1 else "baseline: it chooses")
            + " without reading descriptions, so no budget helps."
        )
    return out


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


class _Seen(NamedTuple):
    """Per budget label, skill names: expected, proven shown, hidden in some row, co-shown."""

    expected: dict[str, set[str]]
    shown: dict[str, set[str]]
    hidden: dict[str, set[str]]
    coshown: dict[str, set[str]]
    """Expected in a row that showed *some* expected skill, not saying which."""
    requests: dict[str, set[str]]
    """Per skill: the requests expecting it."""
    room: dict[str, tuple[int, int]]
    """Per skill: the largest budget where a row expecting it had room to spare, with the
    listing's characters there."""


def _seen(run: Run) -> _Seen:
    """What the rows prove about each expected skill's visibility.

    A row with ``visible`` false hid every skill it expects. One with ``visible`` true showed
    its expected skill when it has one; with several it showed one of them, not saying which.
    A skill the selector chose without hallucinating was in the listing.
    """
    seen = _Seen(
        defaultdict(set), defaultdict(set), defaultdict(set), defaultdict(set), defaultdict(set), {}
    )
    for row in run.rows:
        budget = fmt_value(row.get("budget"))
        names = list(row.get("expected") or ())
        seen.expected[budget].update(names)
        for name in names:
            seen.requests[name].add(str(row.get("request_id")))
        chosen = row.get("chosen")
        if chosen and row.get("outcome") not in NOT_SHOWN:
            seen.shown[budget].add(str(chosen))
        if row.get("visible") is True:
            (seen.shown if len(names) == 1 else seen.coshown)[budget].update(names)
        elif row.get("visible") is False:
            seen.hidden[budget].update(names)
        chars, limit = row.get("listing_chars"), row.get("budget")
        if finite(chars) and finite(limit) and chars <= FITS * limit:
            for name in names:  # the largest budget with room is the strongest evidence
                if seen.room.get(name, (0, 0))[0] < limit:
                    seen.room[name] = (int(limit), int(chars))
    return seen


def _why_never(run: Run, name: str, room: tuple[int, int] | None) -> str:
    """The reason a skill no budget showed, as far as the run records it."""
    status = skill_statuses(run).get(name)
    if status == "inactive":
        return "inactive: a `paths` skill no workspace file matches"
    if status == "disabled":
        return "disabled: `disable-model-invocation` keeps it out of every listing"
    counts = status_counts(run)
    parts = {"inactive": "inactive (`paths`)", "disabled": "disabled"}
    held = " and ".join(_plural(n, parts[k], parts[k]) for k, n in counts.items())
    if room is None:
        if not counts:
            return "dropped by the budget"
        return (
            f"dropped by the budget, or one of the catalog's {held} skills (manifest counts): "
            "the run does not record which"
        )
    text = f"not for lack of room (at budget {room[0]:,} the listing used {room[1]:,} characters)"
    if counts:
        return text + f", so most likely one of the catalog's {held} skills (manifest counts)"
    return text + ", so the catalog held it back (inactive or disabled)"


def hidden_skills(run: Run) -> list[str]:
    """Expected skills that no cell showed: at any budget (with the reason when known), then
    per budget (hidden whatever the ordering)."""
    if not run.rows:
        return ["Skills never shown: unknown (results.jsonl is missing)."]
    seen = _seen(run)
    budgets = sorted(seen.expected, key=lambda b: sort_value(int(b) if b.isdigit() else None))
    never = {b: seen.hidden[b] - seen.shown[b] for b in budgets}
    everywhere = sorted(set.intersection(*never.values()), key=str.lower)
    out = []
    where = "at any budget" if len(budgets) > 1 else f"at budget {_budget(budgets[0])}"
    for name in everywhere:
        n = len(seen.requests[name])
        also = (
            "; where another expected skill was shown, the rows do not say whether it was too"
            if any(name in seen.coshown[b] for b in budgets)
            else ""
        )
        out.append(
            f"`{name}` was never visible in any decision {where} "
            f"({_plural(n, 'request expects', 'requests expect')} it{also}): "
            f"{_why_never(run, name, seen.room.get(name))}."
        )
    dropped = False
    for b in budgets:
        hidden = sorted(never[b] - set(everywhere), key=str.lower)
        if hidden:
            dropped = True
            out.append(
                f"At budget {_budget(b)}: {len(hidden)} of {len(seen.expected[b])} expected "
                f"skills {'was' if len(hidden) == 1 else 'were'} never shown: {_names(hidden)}."
            )
    unsure = sorted(
        {n for b in budgets for n in seen.expected[b] - seen.shown[b] - seen.hidden[b]},
        key=str.lower,
    )
    if unsure:
        out.append(
            f"{_names(unsure)}: visible only in decisions expecting another skill too, so "
            "whether they were shown is not recorded."
        )
    if not out:
        return ["Every expected skill was shown in some decision at every budget."]
    if dropped:
        out.append("Shorten descriptions, raise the budget or order by usage to show them.")
    if everywhere:
        out.append(
            "No budget shows a skill the catalog holds back: check `paths` globs against the "
            "workspace and `disable-model-invocation` flags."
        )
    return out


def _budget(label: str) -> str:
    return f"{int(label):,}" if label.isdigit() else label


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
        out.append(
            "Make each description name the concrete features that tell it apart (inputs, "
            "file types, tools, the result it produces) rather than saying when *not* to use "
            "it: negations made retrieval selectors worse in our measurements, as they match "
            "the words a negation names. Check a rewrite with `skillbench compare "
            "RUN::catalog=base RUN::catalog=rewrite` (counts: all cells)."
        )
    triggers = sorted(
        ((c, n) for (e, c), n in counts.items() if e == "none" and is_skill(c)),
        key=lambda kv: (-kv[1], kv[0]),
    )[:3]
    if triggers:
        listed = ", ".join(f"`{c}` ({n:,})" for c, n in triggers)
        out.append(f"Most frequent false triggers on requests needing no skill: {listed}.")
    return out or ["No confusions between skills were recorded."]
