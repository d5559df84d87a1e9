"""The OpenAI Codex profile (open source; FIELD-NOTES 3).

Budget: 2% of the context window in tokens at 4 bytes per token, or 8,000 characters when
the window is unknown (the default here). The budget counts the listing block (the section
header and entries joined by newlines); Codex puts it in its instructions, so there is no
reminder wrapper. Three stages:

1. every entry in full when it fits;
2. else every name stays and description characters are shared round-robin, one character
   at a time in listing order, so short descriptions release their share to longer ones;
3. if even empty descriptions overflow: names only, ordered by scope (repo, user, system,
   admin, then others) and name, omitting skills once the budget is used.

Codex has no usage tracking: this profile never sees usage scores, so the ``usage`` ordering
falls back to its static keys (source priority, then name), which is close to Codex's own
scope-then-name order. Other orderings are honoured in stages 1 and 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from skillbench.catalog import Skill
from skillbench.listing._renderer import RENDERERS, Entry, Layout, Placed, one_line
from skillbench.listing._types import EntryStatus

HEADER = (
    "## Skills\n"
    "Each skill below is a SKILL.md file of local instructions; when a request matches a "
    "skill's description, open its file and follow it.\n"
    "### Available skills"
)
SCOPE_RANK: Mapping[str, int] = {"project": 0, "user": 1, "bundled": 2, "managed": 3}
"""Codex scopes Repo → User → System → Admin mapped onto skill sources; others rank last."""
BYTES_PER_TOKEN = 4
DEFAULT_BUDGET = 8000


def _suffix(skill: Skill) -> str:
    return f" (file: {skill.path})" if skill.path else ""


@dataclass(frozen=True)
class CodexRenderer:
    """``- name: description (file: path)`` entries; see the module docstring."""

    default_budget: int | None = DEFAULT_BUDGET
    name: str = "codex"
    budgeted: bool = True
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False

    def entry(self, skill: Skill, index: int) -> Entry:
        desc = one_line(skill.description)
        short = f"- {skill.name}"
        text = f"{short}: {desc}{_suffix(skill)}" if desc else f"{short}:{_suffix(skill)}"
        return Entry(skill, index, text, "full", desc, short=short, body=desc)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        entries = list(ordered)
        if not entries:
            return Layout("", 0, [])
        limit = budget if budget is not None else float("inf")
        base = len(HEADER) + len(entries)
        if base + sum(len(e.text) for e in entries) <= limit:
            return _emit([(e, e.body) for e in entries], [e.placed for e in entries])
        fixed = base + sum(len(e.text) - len(e.body) for e in entries)
        if fixed <= limit:
            return _share(entries, int(limit - fixed))
        return _names(entries, limit)


def _share(entries: list[Entry], room: int) -> Layout:
    """Stage 2: water-fill ``room`` description characters, round-robin in listing order."""
    lengths = [len(e.body) for e in entries]
    level, left, remaining = 0, room, len(entries)
    for d in sorted(lengths):
        need = (d - level) * remaining
        if need > left:
            step = left // remaining
            level, left = level + step, left - step * remaining
            break
        left -= need
        level, remaining = d, remaining - 1
    parts: list[tuple[Entry, str | None]] = []
    shown: list[Placed] = []
    for e, d in zip(entries, lengths, strict=True):
        give = min(d, level)
        if d > level and left > 0:
            give, left = give + 1, left - 1
        desc = e.body[:give]
        parts.append((e, desc))
        status: EntryStatus = "full" if give == d else "truncated" if give else "name_only"
        chars = len(e.text) - d + give - (0 if give or not d else 1)
        shown.append(Placed(e.index, status, chars, desc, None))
    return _emit(parts, shown)


def _names(entries: list[Entry], limit: float) -> Layout:
    """Stage 3: names only by scope then name, stopping when the budget is used."""
    ranked = sorted(entries, key=lambda e: (SCOPE_RANK.get(e.skill.source, 4), e.skill.name))
    used = len(HEADER)
    parts: list[tuple[Entry, str | None]] = []
    shown: list[Placed] = []
    for e in ranked:
        line = e.short + _suffix(e.skill)
        if used + len(line) + 1 > limit:
            break
        used += len(line) + 1
        parts.append((e, None))
        shown.append(Placed(e.index, "name_only", len(line), "", None))
    return _emit(parts, shown)


def _emit(parts: list[tuple[Entry, str | None]], shown: list[Placed]) -> Layout:
    """Entries with the given descriptions (``None``: name only, "" : empty description)."""
    if not parts:
        return Layout("", 0, [])
    lines = [_line(e, desc) for e, desc in parts]
    text = HEADER + "\n" + "\n".join(lines)
    return Layout(text, len(text), shown)


def _line(e: Entry, desc: str | None) -> str:
    if desc is None:
        return e.short + _suffix(e.skill)
    return f"{e.short}: {desc}{_suffix(e.skill)}" if desc else f"{e.short}:{_suffix(e.skill)}"


@RENDERERS.register("codex")
def _codex(budget: int | None = None, context_tokens: int | None = None) -> CodexRenderer:
    """Budget: ``budget`` if given, else 2% of ``context_tokens`` × 4, else 8,000."""
    if budget is None:
        budget = (
            DEFAULT_BUDGET if context_tokens is None else context_tokens * BYTES_PER_TOKEN // 50
        )
    return CodexRenderer(budget)
