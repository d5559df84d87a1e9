"""The opencode profile, as opencode 1.18.33 lists skills (checked against captured requests).

The listing is an ``<available_skills>`` block in the system prompt: per skill, indented
``<skill>``, ``<name>``, ``<description>`` and ``<location>`` lines (the ``SKILL.md``'s
absolute path; ``<built-in>`` for opencode's own skill).

- Name and description are listed as the frontmatter holds them: not escaped, line breaks
  kept. Only the location is XML-escaped.
- A skill without a description is not listed; ``disable-model-invocation`` is not read.
- Order: by name, a locale-aware comparison (as Claude Code sorts); no budget.
- Loading: ``~/.claude/skills`` and ``~/.agents/skills``, then ``.claude``/``.agents``
  folders from the working directory up to the worktree root, then config folders and
  ``skills.paths``; every ``SKILL.md`` under them, nested ones too. Of two skills of one
  name the one read last wins (files are read concurrently: the winner is not fixed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from skillbench.catalog import Precedence, Skill, SourceKind
from skillbench.listing._claude_code_text import collation_key
from skillbench.listing._profile import Profile, Release, register_profile
from skillbench.listing._raw import escape_xml, raw_field
from skillbench.listing._renderer import Entry, Layout
from skillbench.listing._snapshot import AgentSnapshot, BuiltinSkill, resolve_snapshot
from skillbench.listing._types import EntryStatus

AGENT_VERSION = "1.18.33"
OPEN = "<available_skills>"
CLOSE = "</available_skills>"
BUILT_IN = "<built-in>"
DEFAULT_ROOTS: Mapping[SourceKind, str] = {
    "project": ".agents/skills",
    "user": "~/.agents/skills",
    "extra": "~/.claude/skills",
    "plugin": ".opencode/skills",
}
"""Where each source kind lives on a user's machine (opencode prints the absolute path; a
render can pass the real folders, as a fidelity check does)."""

OPENCODE = Precedence(
    "opencode",
    ("bundled", "user", "project", "extra", "plugin", "managed"),
    True,
    "opencode: the skill read last wins (user, project, config folders, skills.paths); "
    "files are read concurrently, so a clash has no fixed winner",
    paths="ignored",
    codex_limits=True,
)
"""``codex_limits``: like Codex, opencode does not read ``disable-model-invocation`` and
skips a skill without a description (it also rejects over-long names, which opencode
lists: an approximation)."""


def element(name: str, description: str, location: str) -> str:
    return (
        f"  <skill>\n    <name>{name}</name>\n    <description>{description}</description>\n"
        f"    <location>{escape_xml(location, '&#39;')}</location>\n  </skill>"
    )


@dataclass(frozen=True)
class OpencodeRenderer:
    """See the module docstring.

    Args:
        builtin: opencode's own skills (from a snapshot), listed among the user's.
        roots: the folder of each source kind, as the locations show it.
    """

    builtin: tuple[BuiltinSkill, ...] = ()
    roots: Mapping[SourceKind, str] = field(default_factory=lambda: dict(DEFAULT_ROOTS))
    default_budget: int | None = None
    name: str = "opencode"
    budgeted: bool = False
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        return {}

    def hidden(self, skill: Skill) -> str | None:
        if skill.path is not None and not skill.path.endswith("SKILL.md"):
            return "opencode loads only SKILL.md files, not other skill declarations"
        if skill.source in ("bundled", "managed"):
            return f"opencode has no {skill.source} skills besides its own"
        return None

    def shown_path(self, skill: Skill) -> str | None:
        root = self.roots.get(skill.source)
        if skill.rel_path is None or root is None:
            return skill.path
        return f"{root}/{skill.rel_path}"

    def entry(self, skill: Skill, index: int) -> Entry:
        description = raw_field(skill, "description", skill.description) or ""
        text = element(skill.name, description, self.shown_path(skill) or "")
        return Entry(skill, index, text, "full", description)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        items: list[tuple[str, str, Entry | None]] = [
            (b.name, element(b.name, b.description, b.path or BUILT_IN), None) for b in self.builtin
        ]
        items += [(e.skill.name, e.text, e) for e in ordered]
        if not items:
            return Layout("", None, [])
        items.sort(key=lambda it: collation_key(it[0]))
        text = "\n".join([OPEN, *(text for _, text, _ in items), CLOSE])
        return Layout(text, None, [e.placed for _, _, e in items if e is not None])


def _opencode(
    snapshot: AgentSnapshot | str | None = "auto", roots: Mapping[SourceKind, str] | None = None
) -> OpencodeRenderer:
    """``snapshot`` supplies opencode's own skill: an AgentSnapshot, ``auto`` (the cached
    snapshot of the verified version, if any), ``none`` or a path to a ``snapshot.json``.
    ``roots`` replaces the folders the locations start with."""
    if snapshot is None or isinstance(snapshot, str):
        snapshot = resolve_snapshot(snapshot, "opencode", AGENT_VERSION)
    builtin = snapshot.builtin_skills if snapshot is not None else ()
    return OpencodeRenderer(builtin, {**DEFAULT_ROOTS, **(roots or {})})


register_profile(
    Profile(
        "opencode",
        OPENCODE,
        _opencode,
        placement="system",
        trigger="skill_tool",
        summary="every skill with a description, sorted by name, text as written; no budget",
        releases=(
            Release(
                AGENT_VERSION,
                "byte-identical captures: four public catalogs, all together, a 2-skill catalog",
            ),
        ),
        ordering="alpha",
    )
)
