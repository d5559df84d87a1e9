"""Codex's budget arithmetic: line costs and the three overflow stages.

``render_lines`` picks the stage: every line in full when they fit; else every line kept
with description characters shared round-robin (``_share``); else bare lines in order while
they fit (``_names``), the rest omitted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from skillbench.listing._codex_text import REMOVED_PREFIX

BYTES_PER_TOKEN = 4


def _tokens(nbytes: int) -> int:
    """Codex's approximate token count: UTF-8 bytes / 4, rounded up."""
    return (nbytes + BYTES_PER_TOKEN - 1) // BYTES_PER_TOKEN


@dataclass(frozen=True, slots=True)
class LineBudget:
    """A limit in approximate tokens (``tokens``) or in characters."""

    limit: int
    tokens: bool

    def cost(self, text: str) -> int:
        return _tokens(len(text.encode())) if self.tokens else len(text)

    def counts(self, chars: int, nbytes: int) -> int:
        return _tokens(nbytes) if self.tokens else chars

    def minus(self, spent: int) -> LineBudget:
        return LineBudget(max(self.limit - spent, 0), self.tokens)


class SkillLine(NamedTuple):
    """One listed skill: its name, description (already capped) and path as shown."""

    name: str
    description: str
    path: str

    def render(self, chars: int | None = None) -> str:
        """The line with the first ``chars`` description characters (None: all)."""
        desc = self.description if chars is None else self.description[:chars]
        if desc:
            return f"- {self.name}: {desc} (file: {self.path})"
        return f"- {self.name}: (file: {self.path})"


class Rendered(NamedTuple):
    """A rendering: lines shown, description characters kept per skill (None: omitted), and
    the counts Codex compares variants by."""

    lines: list[str]
    allocations: list[int | None]
    omitted: int
    truncated_chars: int
    used: int

    @property
    def included(self) -> int:
        return len(self.lines)


def line_cost(budget: LineBudget, line: str) -> int:
    """What one listed line costs: itself and its newline."""
    return budget.cost(line + "\n")


def render_lines(lines: Sequence[SkillLine], budget: LineBudget) -> Rendered:
    """Stage 1 (all in full) if it fits, else stage 2 (shared descriptions), else stage 3."""
    full = [line.render() for line in lines]
    used = sum(line_cost(budget, text) for text in full)
    if used <= budget.limit:
        return Rendered(full, [len(line.description) for line in lines], 0, 0, used)
    minimum = [line.render(0) for line in lines]
    floor = sum(line_cost(budget, text) for text in minimum)
    if floor <= budget.limit:
        return _share(lines, minimum, budget, floor)
    return _names(lines, minimum, budget)


def _extra_costs(line: SkillLine, minimum: str, budget: LineBudget) -> tuple[int, ...]:
    """Cost above the bare line of showing 1, 2, … description characters (index = chars)."""
    return _costs(line.description, len(minimum) + 1, len(minimum.encode()) + 1, budget.tokens)


@lru_cache(maxsize=1 << 16)
def _costs(description: str, base_chars: int, base_bytes: int, tokens: bool) -> tuple[int, ...]:
    """What ``_extra_costs`` computes; cached, as only the budget's unit enters it and a
    catalog is often rendered at many budgets."""
    budget = LineBudget(0, tokens)
    base = budget.counts(base_chars, base_bytes)
    costs, nbytes = [0], 0
    for count, ch in enumerate(description, start=1):
        nbytes += len(ch.encode())
        costs.append(max(budget.counts(base_chars + count + 1, base_bytes + nbytes + 1) - base, 0))
    return tuple(costs)


def _share(
    lines: Sequence[SkillLine], minimum: list[str], budget: LineBudget, floor: int
) -> Rendered:
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
    cut = sum(len(line.description) - n for line, n in zip(lines, alloc, strict=True))
    used = sum(line_cost(budget, text) for text in shown)
    return Rendered(shown, list(alloc), 0, cut, used)


def _names(lines: Sequence[SkillLine], minimum: list[str], budget: LineBudget) -> Rendered:
    """Stage 3: bare lines in order while they fit; one that does not is omitted and later
    ones are still tried."""
    shown: list[str] = []
    alloc: list[int | None] = []
    used = omitted = 0
    for text in minimum:
        cost = line_cost(budget, text)
        if used + cost <= budget.limit:
            used += cost
            shown.append(text)
            alloc.append(0)
        else:
            omitted += 1
            alloc.append(None)
    cut = sum(len(line.description) for line in lines)
    return Rendered(shown, alloc, omitted, cut, used)


def is_better(
    candidate: Rendered, candidate_cost: int, current: Rendered, current_cost: int
) -> bool:
    """Codex's choice between two variants: more skills shown, else fewer description
    characters cut, else a cheaper block."""
    if candidate.included != current.included:
        return candidate.included > current.included
    if candidate.truncated_chars != current.truncated_chars:
        return candidate.truncated_chars < current.truncated_chars
    return candidate_cost < current_cost


def warning(rendered: Rendered) -> str | None:
    """The warning Codex shows its user when skills were left out, if any."""
    if not rendered.omitted:
        return None
    one = rendered.omitted == 1
    return (
        f"{REMOVED_PREFIX} {rendered.omitted} additional {'skill' if one else 'skills'} "
        f"{'was' if one else 'were'} not included in the model-visible skills list."
    )
