"""Codex's listing framing and budget arithmetic: line costs and the three overflow stages.

The framing is the ``<skills_instructions>`` block of its developer message, as Codex 0.169.0
formats it (only the format: the system skills it lists are read from an agent snapshot at
run time).

``render_lines`` picks the stage: every line in full when they fit; else every line kept
with description characters shared round-robin (``_share``); else bare lines in order while
they fit (``_names``), the rest omitted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

OPEN_TAG = "<skills_instructions>"
CLOSE_TAG = "</skills_instructions>"

INTRO_ALIASES = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)
"""The opening sentence when paths are shortened with a ``### Skill roots`` table (what
every captured request carried)."""

INTRO_LOCATORS = (
    "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list "
    "of skills that can be used. Each entry includes a name, description, and source locator. "
    "`file` locators are on the host filesystem, `executor package` locators are owned by "
    "their execution environment, `cloud package` locators are opaque package identifiers, "
    "and `custom resource` locators use their provider's access mechanism."
)
"""The opening sentence of the variant with absolute paths. Codex sends it only when the
aliased variant is not better; its length also sets what the roots table costs."""

REMOVED_PREFIX = "Exceeded skills context budget. All skill descriptions were removed and"

TRUNCATED_SUFFIX = "..."
"""What a description cut at the per-entry cap ends with."""

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


class Bounds(NamedTuple):
    """What a set of lines costs in full and bare (every description omitted): the same at
    every budget, so computed once for the many budgets a plan renders."""

    full: list[str]
    used: int
    minimum: list[str]
    floor: int


@lru_cache(maxsize=4)
def _bounds(lines: tuple[SkillLine, ...], tokens: bool) -> Bounds:
    unit = LineBudget(0, tokens)
    full = [line.render() for line in lines]
    minimum = [line.render(0) for line in lines]
    used = sum(line_cost(unit, text) for text in full)
    return Bounds(full, used, minimum, sum(line_cost(unit, text) for text in minimum))


def render_lines(lines: Sequence[SkillLine], budget: LineBudget) -> Rendered:
    """Stage 1 (all in full) if it fits, else stage 2 (shared descriptions), else stage 3."""
    bounds = _bounds(tuple(lines), budget.tokens)
    if bounds.used <= budget.limit:
        kept: list[int | None] = [len(line.description) for line in lines]
        return Rendered(list(bounds.full), kept, 0, 0, bounds.used)
    if bounds.floor <= budget.limit:
        return _share(lines, budget, bounds.floor)
    return _names(lines, bounds.minimum, budget)


if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Deltas = tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int64]]


@lru_cache(maxsize=2)
def _deltas(lines: tuple[SkillLine, ...], tokens: bool) -> Deltas:
    """What each further description character costs, all skills in one flat array (skill
    ``i``'s ``k``-th character at ``offsets[i] + k``), with each description's length;
    cached, as a plan renders one catalog at many budgets.

    Showing ``k`` characters makes a line ``k + 1`` characters longer (the description and
    its separating space) than the bare line; in tokens the cost is the rounded-up bytes of
    the longer line less those of the bare one, never below zero.
    """
    import numpy as np  # only a render that overflows needs it; ``--help`` never does

    lengths = np.fromiter((len(line.description) for line in lines), np.int64, len(lines))
    offsets = np.zeros(len(lines), np.int64)
    np.cumsum(lengths[:-1], out=offsets[1:])
    starts = offsets[lengths > 0]
    if not tokens:
        deltas = np.ones(int(lengths.sum()), np.int8)
        deltas[starts] = 2
        return deltas, offsets, lengths
    points = np.frombuffer("".join(line.description for line in lines).encode("utf-32-le"), "<u4")
    grown = np.cumsum(
        1 + (points >= 0x80).view(np.int8) + (points >= 0x800) + (points >= 0x10000),
        dtype=np.int32,
    )
    del points
    bare = np.fromiter((len(line.render(0).encode()) + 1 for line in lines), np.int32, len(lines))
    shift = bare - np.concatenate(([0], grown))[offsets].astype(np.int32)
    grown += np.repeat(shift, lengths)
    grown += BYTES_PER_TOKEN
    grown //= BYTES_PER_TOKEN
    grown -= np.repeat((bare + BYTES_PER_TOKEN - 1) // BYTES_PER_TOKEN, lengths)
    np.maximum(grown, 0, out=grown)
    deltas = np.diff(grown, prepend=0).astype(np.int8)
    deltas[starts] = grown[starts]
    return deltas, offsets, lengths


def _round(deltas: npt.NDArray[np.int8], remaining: int) -> npt.NDArray[np.bool_]:
    """Which skills of one round-robin pass take their next character: each in turn while
    its cost fits what is left; a character costing nothing is always taken."""
    import numpy as np

    spent = np.cumsum(deltas)
    take = np.ones(len(deltas), bool)
    if spent[-1] <= remaining:
        return take
    first = int(np.searchsorted(spent, remaining, side="right"))
    left = remaining - (int(spent[first - 1]) if first else 0)
    take[first:] = deltas[first:] == 0
    for j in np.flatnonzero(deltas[first + 1 :] > 0) + first + 1:
        if left == 0:
            break
        if deltas[j] <= left:
            take[j] = True
            left -= int(deltas[j])
    return take


def _share(lines: Sequence[SkillLine], budget: LineBudget, floor: int) -> Rendered:
    """Stage 2: one description character at a time to each skill in turn while it fits.

    A skill whose next character does not fit is passed over for good (what is left only
    shrinks), so each pass is one vectorised step over the skills still growing.
    """
    import numpy as np

    deltas, offsets, lengths = _deltas(tuple(lines), budget.tokens)
    alloc = np.zeros(len(lines), np.int64)
    remaining = budget.limit - floor
    active = np.flatnonzero(lengths > 0)
    step = 0
    while active.size:
        cost = deltas[offsets[active] + step]
        take = _round(cost, remaining)
        remaining -= int(cost[take].sum())
        alloc[active[take]] += 1
        step += 1
        active = active[take & (lengths[active] > step)]
    kept: list[int] = alloc.tolist()
    shown = [line.render(n) for line, n in zip(lines, kept, strict=True)]
    cut = int(lengths.sum() - alloc.sum())
    return Rendered(shown, list[int | None](kept), 0, cut, budget.limit - remaining)


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
