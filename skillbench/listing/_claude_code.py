"""The Claude Code profile (closed source; modelled on its changelog, docs and issues).

Budget accounting: the budget counts the listing block (header line, blank line and entries
joined by newlines); the ``<system-reminder>`` wrapper is not counted.

Current behaviour: the budget is 1% of the context window at 4 characters per token, or
8,000 characters when the window is unknown; each entry's ``description - when_to_use`` is
capped at 1,536 characters. A skill with neither a description nor ``when_to_use`` is not
listed, and ``skill_overrides`` (Claude Code's ``skillOverrides`` setting) lists a skill
``on`` (normally), ``name-only``, or not at all (``user-invocable-only``: only the user may
call it; ``off``). The header line is not public: it is an approximation.
On overflow every name stays and descriptions are dropped (``name_only``) by a drop rule.
The exact rule is not public and reports differ, so it is pluggable (``DROP_RULES``):

- ``least_used`` (default, as documented): drop the descriptions of the least-used skills
  first (lowest usage score, ties: last in listing order first) until the listing fits;
- ``alpha_greedy`` (as one issue observed): walk skills alphabetically, keep a description
  whenever it still fits, else show the name only.

Should the names alone overflow, whole skills are dropped from the end of the listing.
``legacy=True`` models versions before 2.1: a flat 15,000-character budget, entries in full
in listing order, stopping at the first that does not fit (later skills hidden).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from skillbench._registry import Registry
from skillbench.catalog import CLAUDE_CODE, Skill
from skillbench.listing._profile import Profile, register_profile
from skillbench.listing._renderer import Entry, Layout, Placed, cap, one_line
from skillbench.listing._types import EntryStatus

HEADER = "The following skills are available for use with the Skill tool:\n"
FALLBACK_BUDGET = 8000
BUDGET_FRACTION = 0.01
SkillOverride = Literal["on", "name-only", "user-invocable-only", "off"]
OVERRIDES: tuple[SkillOverride, ...] = ("on", "name-only", "user-invocable-only", "off")
WRAP_OPEN = "<system-reminder>\n"
WRAP_CLOSE = "\n</system-reminder>"
CHARS_PER_TOKEN = 4
LEGACY_BUDGET = 15_000

DropRule = Callable[[Sequence[Entry], Mapping[str, float], int], set[int]]
"""``(entries in listing order, scores, room for descriptions) -> positions keeping theirs``.

Room is the budget minus the names-only listing; keeping entry i's description costs
``len(e.text) - len(e.short)`` characters of it."""

DROP_RULES: Registry[DropRule] = Registry("drop rule")
SCORELESS_DROP_RULES: frozenset[str] = frozenset({"alpha_greedy"})
"""Drop rules that never read usage scores; any other rule is assumed to read them."""


def _extra(e: Entry) -> int:
    return len(e.text) - len(e.short)


@DROP_RULES.register("least_used")
def _least_used(entries: Sequence[Entry], scores: Mapping[str, float], room: int) -> set[int]:
    keep_order = sorted(
        range(len(entries)), key=lambda i: (-scores.get(entries[i].skill.name, 0.0), i)
    )
    kept: set[int] = set()
    for i in keep_order:
        room -= _extra(entries[i])
        if room < 0:
            break
        kept.add(i)
    return kept


@DROP_RULES.register("alpha_greedy")
def _alpha_greedy(entries: Sequence[Entry], scores: Mapping[str, float], room: int) -> set[int]:
    kept: set[int] = set()
    for i in sorted(range(len(entries)), key=lambda i: (entries[i].skill.name.casefold(), i)):
        if _extra(entries[i]) <= room:
            room -= _extra(entries[i])
            kept.add(i)
    return kept


@dataclass(frozen=True)
class ClaudeCodeRenderer:
    """``- name: description - when_to_use`` entries; see the module docstring."""

    default_budget: int | None
    entry_cap: int = 1536
    legacy: bool = False
    drop_rule: str = "least_used"
    overrides: Mapping[str, SkillOverride] = field(default_factory=dict)
    name: str = "claude-code"
    budgeted: bool = True
    uses_scores: bool = True
    stops_early: bool = False

    @property
    def layout_uses_scores(self) -> bool:
        """The drop rule decides which descriptions go; legacy layouts drop nothing by usage."""
        return not self.legacy and self.drop_rule not in SCORELESS_DROP_RULES

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        if self.legacy:
            return {
                "truncated": f"description - when_to_use cut at {self.entry_cap} characters",
                "dropped": "legacy budget reached: later skills are hidden",
            }
        return {
            "truncated": f"description - when_to_use cut at {self.entry_cap} characters",
            "name_only": f"description dropped to fit the budget by the {self.drop_rule!r} rule "
            "(or skill_overrides says name-only)",
            "dropped": "even the names alone overflow: skills dropped from the end",
        }

    def hidden(self, skill: Skill) -> str | None:
        override = self.overrides.get(skill.name, "on")
        if override in ("off", "user-invocable-only"):
            return f"skill_overrides sets it {override!r}: never listed to the model"
        if not one_line(skill.description) and not one_line(skill.when_to_use):
            return "neither description nor when_to_use: Claude Code does not list it"
        return None

    def shown_path(self, skill: Skill) -> str | None:
        return None

    def entry(self, skill: Skill, index: int) -> Entry:
        short = f"- {skill.name}"
        if self.overrides.get(skill.name) == "name-only":
            return Entry(skill, index, short, "name_only", "", None, short=short)
        desc, when = one_line(skill.description), one_line(skill.when_to_use)
        full = " - ".join(p for p in (desc, when) if p)
        body = cap(full, self.entry_cap)
        if len(body) <= len(desc) or not when:
            shown_desc, shown_when = body, None
        else:
            shown_desc, shown_when = desc, body[len(desc) + 3 :] if desc else body
        text = f"{short}: {body}" if body else short
        status: EntryStatus = "full" if body == full else "truncated"
        return Entry(skill, index, text, status, shown_desc, shown_when, short=short)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        entries = list(ordered)
        limit = budget if budget is not None else float("inf")
        if self.legacy:
            return _prefix(entries, limit, name_only=False)
        base = len(HEADER) + len(entries)  # header, blank line, newlines between entries
        full = base + sum(len(e.text) for e in entries)
        if full <= limit:
            return _emit([(e, False) for e in entries])
        names = base + sum(len(e.short) for e in entries)
        if names > limit:
            return _prefix(entries, limit, name_only=True)
        kept = DROP_RULES.get(self.drop_rule)(entries, scores, int(limit - names))
        return _emit([(e, i not in kept) for i, e in enumerate(entries)])


def _prefix(entries: list[Entry], limit: float, name_only: bool) -> Layout:
    """The longest prefix of ``entries`` that fits (in full, or as names only)."""
    used = len(HEADER)
    chosen: list[tuple[Entry, bool]] = []
    for e in entries:
        n = len(e.short if name_only else e.text) + 1
        if used + n > limit:
            break
        used += n
        chosen.append((e, name_only))
    return _emit(chosen)


def _emit(chosen: list[tuple[Entry, bool]]) -> Layout:
    """The listing of ``(entry, name_only)`` pairs in order; empty when nothing is shown."""
    if not chosen:
        return Layout("", 0, [])
    lines = [e.short if short else e.text for e, short in chosen]
    shown = [
        Placed(e.index, "name_only", len(e.short), "", None) if short else e.placed
        for e, short in chosen
    ]
    block = HEADER + "\n" + "\n".join(lines)
    return Layout(WRAP_OPEN + block + WRAP_CLOSE, len(block), shown)


def _claude_code(
    budget: int | None = None,
    context_window: int | None = None,
    budget_fraction: float = BUDGET_FRACTION,
    entry_cap: int = 1536,
    legacy: bool = False,
    drop_rule: str = "least_used",
    skill_overrides: Mapping[str, str] | None = None,
) -> ClaudeCodeRenderer:
    """Budget: ``budget`` if given, else 15,000 (legacy), else ``budget_fraction`` of
    ``context_window`` tokens at 4 characters per token, else 8,000 characters."""
    DROP_RULES.get(drop_rule)
    overrides = dict(skill_overrides or {})
    for skill, value in overrides.items():
        if value not in OVERRIDES:
            raise ValueError(f"skill_overrides[{skill!r}] is {value!r}; choose one of {OVERRIDES}")
    if budget is None:
        if legacy:
            budget = LEGACY_BUDGET
        elif context_window is None:
            budget = FALLBACK_BUDGET
        else:
            budget = int(context_window * CHARS_PER_TOKEN * budget_fraction)
    typed = {k: cast(SkillOverride, v) for k, v in overrides.items()}
    return ClaudeCodeRenderer(budget, entry_cap, legacy, drop_rule, typed)


register_profile(
    Profile(
        "claude-code",
        CLAUDE_CODE,
        _claude_code,
        placement="reminder",
        trigger="skill_tool",
        summary="1% of the context window; every name stays, least-used descriptions dropped",
    )
)
