"""The "What to do" section: concrete next steps read off the data."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any, NamedTuple

from skillbench.listing import NotShown
from skillbench.report._plots_skills import confusion_counts, is_skill, selector_cells
from skillbench.report._run import (
    cell_label,
    fmt_value,
    not_shown_reason,
    skill_descriptions,
    sort_value,
    status_counts,
    varying_keys,
)
from skillbench.results import CellFields, Run

FITS = 0.8
"""A listing this far under its budget left nothing out (no entry is a fifth of a budget)."""
NOT_SHOWN = frozenset({"hallucinated", "error", "malformed"})
"""Outcomes whose ``chosen`` name need not have been in the listing."""
QUOTE_CHARS = 140
"""Longest description quoted in full next to a confusion."""


def _names(names: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


SETTING = ("catalog", "profile", "budget")
"""The fields that decide which skills a listing can show (never pooled across)."""


class _Seen(NamedTuple):
    """Per listing setting, skill names: expected, proven shown, hidden in some row,
    co-shown."""

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
    keys = [k for k in SETTING if k in varying_keys(run.summary.cells)]
    for row in run.rows:
        budget = cell_label(row, keys)
        names = list(row.expected)
        seen.expected[budget].update(names)
        for name in names:
            seen.requests[name].add(row.request_id)
        if row.chosen and row.outcome not in NOT_SHOWN:
            seen.shown[budget].add(row.chosen)
        if row.visible is True:
            (seen.shown if len(names) == 1 else seen.coshown)[budget].update(names)
        elif row.visible is False:
            seen.hidden[budget].update(names)
        chars, limit = row.listing_chars, row.budget
        if limit is not None and chars <= FITS * limit:
            for name in names:  # the largest budget with room is the strongest evidence
                if seen.room.get(name, (0, 0))[0] < limit:
                    seen.room[name] = (int(limit), int(chars))
    return seen


def _why_never(run: Run, name: str, room: tuple[int, int] | None) -> str:
    """The reason a skill no budget showed, as far as the run records it."""
    first = next((r for r in run.rows if name in r.expected), None)
    found = not_shown_reason(run, name, first)
    if found.reason != "budget":
        return found.why
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


def _settings(run: Run) -> dict[str, tuple[tuple[Any, ...], str]]:
    """Listing setting label (``_seen``'s key) → its sort key and how advice names it."""
    keys = [k for k in SETTING if k in varying_keys(run.summary.cells)]
    out: dict[str, tuple[tuple[Any, ...], str]] = {}
    for row in run.rows:
        label = cell_label(row, keys)
        if label not in out:
            budget = row.budget
            parts = [f"{k} {fmt_value(getattr(row, k))}" for k in keys if k != "budget"]
            parts.append("the default budget" if budget is None else f"budget {budget:,}")
            order = tuple(sort_value(getattr(row, k)) for k in keys)
            out[label] = (order, ", ".join(parts))
    return out


def hidden_skills(run: Run) -> list[str]:
    """Expected skills that no cell showed: in any listing setting (with the reason when
    known), then per setting (catalog, profile and budget: hidden whatever the ordering)."""
    if not run.rows:
        return ["Skills never shown: unknown (results.jsonl is missing)."]
    seen = _seen(run)
    named = _settings(run)
    settings = sorted(seen.expected, key=lambda b: named[b][0])
    never = {b: seen.hidden[b] - seen.shown[b] for b in settings}
    everywhere = sorted(set.intersection(*never.values()), key=str.lower)
    out = []
    where = "in any listing setting" if len(settings) > 1 else f"at {named[settings[0]][1]}"
    for name in everywhere:
        n = len(seen.requests[name])
        also = (
            "; where another expected skill was shown, the rows do not say whether it was too"
            if any(name in seen.coshown[b] for b in settings)
            else ""
        )
        out.append(
            f"`{name}` was never visible in any decision {where} "
            f"({_plural(n, 'request expects', 'requests expect')} it{also}): "
            f"{_why_never(run, name, seen.room.get(name))}."
        )
    dropped = False
    for b in settings:
        hidden = sorted(never[b] - set(everywhere), key=str.lower)
        if hidden:
            dropped = True
            text = named[b][1]
            out.append(
                f"At {text}: {len(hidden)} of {len(seen.expected[b])} expected "
                f"skills {'was' if len(hidden) == 1 else 'were'} never shown: {_names(hidden)}."
            )
    unsure = sorted(
        {n for b in settings for n in seen.expected[b] - seen.shown[b] - seen.hidden[b]},
        key=str.lower,
    )
    if unsure:
        out.append(
            f"{_names(unsure)}: visible only in decisions expecting another skill too, so "
            "whether they were shown is not recorded."
        )
    if not out:
        return ["Every expected skill was shown in some decision of every listing setting."]
    if dropped:
        out.append("Shorten descriptions, raise the budget or order by usage to show them.")
    if everywhere:
        out.append(
            "No budget shows a skill the catalog holds back: check `paths` globs against the "
            "workspace and `disable-model-invocation` flags."
        )
    return out


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1].rstrip() + "…"


class LeftOut(NamedTuple):
    """Decisions whose expected skill the listing did not show, for one skill, and why."""

    skill: str
    decisions: int
    why: NotShown


def left_out(run: Run, cells: Sequence[CellFields] | None = None) -> list[LeftOut]:
    """Per expected skill, the decisions of ``cells`` (default: every cell) that confusions
    leave out because the listing did not show it, most first, each with its reason (from the
    first cell that records it: its catalog and budget)."""
    counts: dict[str, int] = defaultdict(int)
    where: dict[str, CellFields] = {}
    for c in run.summary.cells if cells is None else cells:
        for name, n in c.not_shown.items():
            counts[name] += int(n)
            where.setdefault(name, c)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [LeftOut(name, n, not_shown_reason(run, name, where[name])) for name, n in ranked]


def left_out_text(found: Sequence[LeftOut], shown: int = 5) -> str:
    """``N decisions whose expected skill the listing did not show: `a` 24× (why); …``."""
    total = sum(f.decisions for f in found)
    reasons = "; ".join(f"`{f.skill}` {f.decisions:,}× ({f.why.why})" for f in found[:shown])
    more = f" and {len(found) - shown} more skills" if len(found) > shown else ""
    return (
        f"{_plural(total, 'decision', 'decisions')} whose expected skill the listing did not "
        f"show: {reasons}{more}"
    )


def _left_out(run: Run, cell: CellFields | None) -> list[str]:
    """The decisions left out of the confusions: their expected skill was not shown."""
    found = left_out(run, selector_cells(run) if cell is None else [cell])
    if not found:
        return []
    return [
        f"Not counted as confusions: {left_out_text(found)}. These are listing problems "
        "(budget, `paths`, flags), not descriptions read wrongly; see Skills never shown."
    ]


def confused_pairs(run: Run, cell: CellFields | None = None, top: int = 5) -> list[str]:
    """The skill pairs a cell's selector mixes up most (default: summed over the selectors
    under test), with descriptions when the run recorded them; only decisions whose expected
    skill was shown count."""
    counts = confusion_counts(run, None if cell is None else [cell])
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
            "RUN::catalog=base RUN::catalog=rewrite`."
        )
    out.extend(_left_out(run, cell))
    triggers = sorted(
        ((c, n) for (e, c), n in counts.items() if e == "none" and is_skill(c)),
        key=lambda kv: (-kv[1], kv[0]),
    )[:3]
    if triggers:
        listed = ", ".join(f"`{c}` ({n:,})" for c, n in triggers)
        out.append(f"Most frequent false triggers on requests needing no skill: {listed}.")
    return out or ["No confusions between skills were recorded."]
