"""The OpenAI Codex profile, reproducing ``codex-rs/core-skills/src/render.rs``.

The listing is the ``## Skills`` block Codex sends as a developer message between
``<skills_instructions>`` tags: an intro sentence, ``### Available skills`` with one
``- name: description (file: path)`` line per skill, then the fixed ``### How to use
skills`` text. Only the skill lines count against the budget, each with its newline:

- a token budget (2% of the context window, ``context_window`` option) costs a line
  ceil(UTF-8 bytes / 4) tokens; a character budget (8,000 when the window is unknown, or
  ``budget`` characters) costs it its length in characters;
- skills are sorted by scope (system, admin, repo, user), then name, then path, whatever
  ordering is asked for: Codex has no usage ordering and no paths-first rule;
- stage 1, every line in full; stage 2, every line kept and description characters handed
  out one at a time round-robin, so short descriptions release their share to long ones;
  stage 3, names only, taken in order while they fit (an oversized line is skipped, later
  ones still tried);
- when stage 1 did not fit, a variant with short ``rN/…`` paths and a ``### Skill roots``
  table is rendered against the budget minus the table's cost, and kept when it shows more
  skills, or cuts fewer description characters, or costs less.

Paths are shown as they would be on a user's machine: each source kind has a root (the
``roots`` option, defaults in ``DEFAULT_ROOTS``) joined with the skill's path inside its
source folder, so the listing is the same in every checkout.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from skillbench.catalog import CODEX, Skill, SourceKind
from skillbench.listing._codex_budget import (
    Budget,
    Rendered,
    SkillLine,
    aliased_is_better,
    render_lines,
    warning,
)
from skillbench.listing._codex_text import (
    CLOSE_TAG,
    HOW_TO_USE_ABSOLUTE,
    HOW_TO_USE_ALIASES,
    INTRO_ABSOLUTE,
    INTRO_ALIASES,
    OPEN_TAG,
)
from skillbench.listing._profile import Profile, register_profile
from skillbench.listing._renderer import Entry, Layout, Placed, one_line
from skillbench.listing._types import EntryStatus

DEFAULT_BUDGET = 8000
CONTEXT_WINDOW_PERCENT = 2

SCOPE_RANK: Mapping[SourceKind, int] = {
    "bundled": 0,
    "managed": 1,
    "project": 2,
    "user": 3,
    "plugin": 3,
    "extra": 3,
}
"""Codex's prompt order of scopes (system 0, admin 1, repo 2, user 3) by source kind:
bundled skills are Codex's system scope, managed ones its admin scope, and plugin and
extra roots load in the user scope."""

DEFAULT_ROOTS: Mapping[SourceKind, str] = {
    "user": "~/.codex/skills",
    "bundled": "~/.codex/skills/.system",
    "managed": "/etc/codex/skills",
    "plugin": "~/.codex/plugins/cache",
    "extra": "~/.codex/extra-skills",
    "project": ".agents/skills",
}
"""Where each source kind lives on a user's machine, in Codex's root scan order (which is
also the order of the ``### Skill roots`` table)."""


def body(root_lines: Sequence[str], skill_lines: Sequence[str]) -> str:
    """``render_available_skills_body``: the block between the tags, newline at both ends."""
    lines = ["## Skills"]
    if root_lines:
        lines += [INTRO_ALIASES, "### Skill roots", *root_lines]
    else:
        lines.append(INTRO_ABSOLUTE)
    lines += ["### Available skills", *skill_lines, "### How to use skills"]
    lines.append(HOW_TO_USE_ALIASES if root_lines else HOW_TO_USE_ABSOLUTE)
    return "\n" + "\n".join(lines) + "\n"


@dataclass(frozen=True)
class CodexRenderer:
    """See the module docstring.

    Args:
        default_budget: the limit when no budget is given (tokens with ``context_window``,
            else 8,000 characters).
        tokens: whether budgets count approximate tokens (set by ``context_window``) rather
            than characters.
        roots: where each source kind lives on a user's machine.
    """

    default_budget: int | None = DEFAULT_BUDGET
    tokens: bool = False
    roots: Mapping[SourceKind, str] = field(default_factory=lambda: dict(DEFAULT_ROOTS))
    name: str = "codex"
    budgeted: bool = True
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False

    def shown_path(self, skill: Skill) -> str | None:
        """The skill's ``SKILL.md`` path as Codex would print it on a user's machine."""
        if skill.rel_path is None:
            return skill.path
        return f"{self.roots.get(skill.source, DEFAULT_ROOTS[skill.source])}/{skill.rel_path}"

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        return {
            "truncated": "description shortened: the whole listing did not fit, so description "
            "characters were shared round-robin among all skills",
            "name_only": "no description characters left: round-robin sharing gave it none, "
            "or even bare lines overflowed and only names are shown",
            "dropped": "even the bare name line did not fit in what the budget had left",
        }

    def hidden(self, skill: Skill) -> str | None:
        return None

    def entry(self, skill: Skill, index: int) -> Entry:
        desc = one_line(skill.description)
        path = self.shown_path(skill) or ""
        text = (
            f"- {skill.name}: {desc} (file: {path})" if desc else f"- {skill.name}: (file: {path})"
        )
        return Entry(skill, index, text, "full", desc, body=desc)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        entries = sorted(
            ordered, key=lambda e: (SCOPE_RANK[e.skill.source], e.skill.name, self._path(e))
        )
        if not entries:
            return Layout("", 0, [])
        limit = Budget(budget if budget is not None else DEFAULT_BUDGET, self.tokens)
        absolute = render_lines([SkillLine(e, self._path(e)) for e in entries], limit)
        best, roots, spent = absolute, [], limit
        if absolute.omitted or absolute.truncated_chars:
            aliased = self._aliased(entries, limit)
            if aliased is not None:
                rendered, root_lines, table = aliased
                if aliased_is_better(rendered, absolute, table):
                    best, roots, spent = rendered, root_lines, limit.minus(table)
        return _emit(best, roots, entries, spent)

    def _path(self, e: Entry) -> str:
        return self.shown_path(e.skill) or ""

    def _aliased(
        self, entries: list[Entry], limit: Budget
    ) -> tuple[Rendered, list[str], int] | None:
        """The ``rN/…`` variant with its roots table and the table's cost, or None when the
        table alone fills the budget."""
        used = [k for k in DEFAULT_ROOTS if any(e.skill.source == k for e in entries)]
        alias: dict[SourceKind, str] = {}
        root_lines: list[str] = []
        for kind in used:
            root = self.roots.get(kind, DEFAULT_ROOTS[kind])
            known = [a for k, a in alias.items() if self.roots.get(k, DEFAULT_ROOTS[k]) == root]
            if known:
                alias[kind] = known[0]
                continue
            alias[kind] = f"r{len(root_lines)}"
            root_lines.append(f"- `{alias[kind]}` = `{root}`")
        table = limit.cost(body(root_lines, [])) - limit.cost(body([], []))
        if table >= limit.limit:
            return None
        lines = [
            SkillLine(e, f"{alias[e.skill.source]}/{e.skill.rel_path}")
            if e.skill.rel_path is not None
            else SkillLine(e, self._path(e))
            for e in entries
        ]
        return render_lines(lines, limit.minus(table)), root_lines, table


def _emit(rendered: Rendered, root_lines: list[str], entries: list[Entry], limit: Budget) -> Layout:
    placed: list[Placed] = []
    for e, shown in zip(entries, rendered.allocations, strict=True):
        if shown is None:
            continue
        full = len(e.body)
        status: EntryStatus = "full" if shown == full else "truncated" if shown else "name_only"
        line = rendered.lines[len(placed)]
        placed.append(Placed(e.index, status, len(line), e.body[:shown], None))
    text = OPEN_TAG + body(root_lines, rendered.lines) + CLOSE_TAG
    return Layout(text, rendered.used, placed, warning(rendered, limit))


def _codex(
    budget: int | None = None,
    context_window: int | None = None,
    roots: Mapping[SourceKind, str] | None = None,
) -> CodexRenderer:
    """``budget`` (characters) if given; else 2% of ``context_window`` in approximate tokens
    (at least 1), as Codex does when it knows the model's window; else 8,000 characters."""
    merged = {**DEFAULT_ROOTS, **(roots or {})}
    if context_window is not None and context_window > 0:
        limit = max(context_window * CONTEXT_WINDOW_PERCENT // 100, 1)
        return CodexRenderer(budget if budget is not None else limit, True, merged)
    return CodexRenderer(budget if budget is not None else DEFAULT_BUDGET, False, merged)


register_profile(
    Profile(
        "codex",
        CODEX,
        _codex,
        placement="system",
        trigger="file_read",
        summary="2% of the context window (or 8,000 characters), descriptions shared, then names",
    )
)
