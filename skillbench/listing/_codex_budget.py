"""Codex's budget arithmetic: line costs, the three overflow stages and the warning text.

Kept apart from the renderer so the stages can be read against ``render.rs`` one function
at a time: ``render_lines`` is ``render_skill_lines_from_lines``, ``_share`` is
``render_lines_with_description_budget`` and ``_names`` is
``render_minimum_skill_lines_until_budget``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from skillbench.listing._codex_text import (
    REMOVED_PREFIX,
    REMOVED_PREFIX_PERCENT,
    TRUNCATED_WARNING,
    TRUNCATED_WARNING_PERCENT,
    TRUNCATION_WARNING_THRESHOLD,
)
from skillbench.listing._renderer import Entry

BYTES_PER_TOKEN = 4


def _tokens(nbytes: int) -> int:
    """Codex's approximate token count: UTF-8 bytes / 4, rounded up."""
    return (nbytes + BYTES_PER_TOKEN - 1) // BYTES_PER_TOKEN


@dataclass(frozen=True, slots=True)
class Budget:
    """A limit in approximate tokens (``tokens``) or in characters."""

    limit: int
    tokens: bool

    def cost(self, text: str) -> int:
        return _tokens(len(text.encode())) if self.tokens else len(text)

    def counts(self, chars: int, nbytes: int) -> int:
        return _tokens(nbytes) if self.tokens else chars

    def minus(self, spent: int) -> Budget:
        return Budget(max(self.limit - spent, 0), self.tokens)


class SkillLine(NamedTuple):
    """One skill's line parts: the entry (name, description) and the path as shown."""

    entry: Entry
    path: str

    def render(self, chars: int | None = None) -> str:
        """The line with the first ``chars`` description characters (None: all)."""
        desc = self.entry.body if chars is None else self.entry.body[:chars]
        name = self.entry.skill.name
        return f"- {name}: {desc} (file: {self.path})" if desc else f"- {name}: (file: {self.path})"


class Rendered(NamedTuple):
    """A rendering: lines shown, description characters kept per skill (None: omitted), and
    the counts Codex reports."""

    lines: list[str]
    allocations: list[int | None]
    omitted: int
    truncated_chars: int
    used: int

    @property
    def included(self) -> int:
        return len(self.lines)


def _line_cost(budget: Budget, line: str) -> int:
    return budget.cost(line + "\n")


def render_lines(lines: Sequence[SkillLine], budget: Budget) -> Rendered:
    """Stage 1 (all in full) if it fits, else stage 2 (shared descriptions), else stage 3."""
    full = [line.render() for line in lines]
    used = sum(_line_cost(budget, text) for text in full)
    if used <= budget.limit:
        return Rendered(full, [len(line.entry.body) for line in lines], 0, 0, used)
    minimum = [line.render(0) for line in lines]
    floor = sum(_line_cost(budget, text) for text in minimum)
    if floor <= budget.limit:
        return _share(lines, minimum, budget, floor)
    return _names(lines, minimum, budget)


def _extra_costs(line: SkillLine, minimum: str, budget: Budget) -> list[int]:
    """Cost above the bare line of showing 1, 2, … description characters (index = chars)."""
    base_chars, base_bytes = len(minimum) + 1, len(minimum.encode()) + 1
    base = budget.counts(base_chars, base_bytes)
    costs, nbytes = [0], 0
    for count, ch in enumerate(line.entry.body, start=1):
        nbytes += len(ch.encode())
        costs.append(max(budget.counts(base_chars + count + 1, base_bytes + nbytes + 1) - base, 0))
    return costs


def _share(lines: Sequence[SkillLine], minimum: list[str], budget: Budget, floor: int) -> Rendered:
    """Stage 2: one description character at a time to each skill in turn while it fits."""
    extras = [_extra_costs(line, m, budget) for line, m in zip(lines, minimum, strict=True)]
    alloc = [0] * len(lines)
    remaining = budget.limit - floor
    changed = True
    while changed:
        changed = False
        for i, costs in enumerate(extras):
            if alloc[i] + 1 >= len(costs):
                continue
            delta = costs[alloc[i] + 1] - costs[alloc[i]]
            if delta <= remaining:
                alloc[i] += 1
                remaining -= delta
                changed = True
    shown = [line.render(n) for line, n in zip(lines, alloc, strict=True)]
    cut = sum(len(line.entry.body) - n for line, n in zip(lines, alloc, strict=True))
    used = sum(_line_cost(budget, text) for text in shown)
    return Rendered(shown, list(alloc), 0, cut, used)


def _names(lines: Sequence[SkillLine], minimum: list[str], budget: Budget) -> Rendered:
    """Stage 3: bare lines in order while they fit; one that does not is skipped."""
    shown: list[str] = []
    alloc: list[int | None] = []
    used = omitted = 0
    for text in minimum:
        cost = _line_cost(budget, text)
        if used + cost <= budget.limit:
            used += cost
            shown.append(text)
            alloc.append(0)
        else:
            omitted += 1
            alloc.append(None)
    cut = sum(len(line.entry.body) for line in lines)
    return Rendered(shown, alloc, omitted, cut, used)


def aliased_is_better(aliased: Rendered, absolute: Rendered, table_cost: int) -> bool:
    """More skills shown, else fewer description characters cut, else a cheaper listing."""
    if aliased.included != absolute.included:
        return aliased.included > absolute.included
    if aliased.truncated_chars != absolute.truncated_chars:
        return aliased.truncated_chars < absolute.truncated_chars
    return table_cost + aliased.used < absolute.used


def warning(rendered: Rendered, budget: Budget) -> str | None:
    """The warning Codex shows the user for this rendering, if any."""
    total = len(rendered.allocations)
    if rendered.omitted:
        one = rendered.omitted == 1
        prefix = REMOVED_PREFIX_PERCENT if budget.tokens else REMOVED_PREFIX
        return (
            f"{prefix} {rendered.omitted} additional {'skill' if one else 'skills'} "
            f"{'was' if one else 'were'} not included in the model-visible skills list."
        )
    average = -(-rendered.truncated_chars // total) if total else 0
    if average > TRUNCATION_WARNING_THRESHOLD:
        return TRUNCATED_WARNING_PERCENT if budget.tokens else TRUNCATED_WARNING
    return None
