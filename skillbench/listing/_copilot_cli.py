"""The GitHub Copilot CLI profile, as Copilot CLI 1.0.102 lists skills (learnt by capture:
the CLI is closed source).

The listing is the ``<available_skills>`` block of the system prompt, inside the section on
its ``skill`` tool: one ``<skill>`` element per skill with its ``<name>``, XML-escaped
``<description>`` and ``<location>`` (the scope: ``project``, ``user``, ``builtin``).

- Order: project skills sorted by name (every project folder together), then user skills
  folder by folder (``~/.copilot/skills``, then ``~/.agents/skills``), each sorted by name,
  then the built-in skills.
- Budget: 15,000 characters, each element counting its length and a newline; from the
  first element that does not fit, every remaining skill is named on one line,
  ``Additional skills available (invoke by name): a, b, …``.
- Rejected: a description over 1,024 characters (the skill is not loaded at all).
- Read: ``disable-model-invocation`` (such skills are left out); ``paths`` is not.
- Descriptions are sent as parsed from YAML (line breaks kept), ends trimmed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple
from xml.sax.saxutils import escape, unescape

from skillbench.catalog import Precedence, Skill, SourceKind
from skillbench.listing._profile import Profile, Release, register_profile
from skillbench.listing._raw import raw_field
from skillbench.listing._renderer import Entry, Layout, Placed
from skillbench.listing._snapshot import AgentSnapshot, BuiltinSkill, resolve_snapshot
from skillbench.listing._types import EntryStatus

AGENT_VERSION = "1.0.102"
OPEN_TAG = "<available_skills>"
CLOSE_TAG = "</available_skills>"
BUDGET = 15_000
MAX_DESCRIPTION_CHARS = 1024
MORE = "Additional skills available (invoke by name): "
_ENTITIES = {'"': "&quot;", "'": "&apos;"}
_BUILTIN = re.compile(
    r"<skill>\n  <name>(.*?)</name>\n  <description>(.*?)</description>\n"
    r"  <location>builtin</location>\n</skill>",
    re.DOTALL,
)
SCOPES: Mapping[SourceKind, str] = {
    "project": "project",
    "user": "user",
    "bundled": "builtin",
    "plugin": "plugin",
    "extra": "project",
    "managed": "user",
}
"""The ``<location>`` text of each source kind (``plugin`` unverified)."""

COPILOT_CLI = Precedence(
    "copilot-cli",
    ("project", "extra", "user", "managed", "plugin", "bundled"),
    False,
    "copilot-cli: first found wins (project, user, built-in)",
    paths="ignored",
)


def xml_text(text: str) -> str:
    """``text`` with ``& < > " '`` as XML entities, as the agent writes them."""
    return escape(text, _ENTITIES)


def skill_element(name: str, description: str, scope: str) -> str:
    return (
        f"<skill>\n  <name>{xml_text(name)}</name>\n"
        f"  <description>{xml_text(description)}</description>\n"
        f"  <location>{scope}</location>\n</skill>"
    )


class _Item(NamedTuple):
    entry: Entry | None
    name: str
    text: str


def parse_builtins(block: str) -> list[BuiltinSkill]:
    """The built-in skills of a captured listing (elements located ``builtin``), their
    text unescaped."""
    back = {v: k for k, v in _ENTITIES.items()}
    return [
        BuiltinSkill(unescape(m.group(1), back), unescape(m.group(2), back))
        for m in _BUILTIN.finditer(block)
    ]


@dataclass(frozen=True)
class CopilotCliRenderer:
    """See the module docstring.

    Args:
        default_budget: characters of elements listed in full.
        builtin_skills: Copilot CLI's own skills (from a snapshot; descriptions as sent).
    """

    default_budget: int | None = BUDGET
    builtin_skills: tuple[BuiltinSkill, ...] = ()
    name: str = "copilot-cli"
    budgeted: bool = True
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        return {
            "name_only": "past the 15,000-character budget: this and every later skill are "
            "only named, on one line",
        }

    def hidden(self, skill: Skill) -> str | None:
        if len(raw_field(skill, "description", skill.description).strip()) > MAX_DESCRIPTION_CHARS:
            return "Copilot CLI does not load a skill whose description is over 1,024 characters"
        if skill.path is not None and not skill.path.endswith("SKILL.md"):
            return "Copilot CLI loads only SKILL.md files, not other skill declarations"
        return None

    def shown_path(self, skill: Skill) -> str | None:
        return None

    def entry(self, skill: Skill, index: int) -> Entry:
        description = raw_field(skill, "description", skill.description).strip()
        text = skill_element(skill.name, description, SCOPES[skill.source])
        return Entry(skill, index, text, "full", description, short=skill.name)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        items = [_Item(e, e.skill.name, e.text) for e in _in_agent_order(list(ordered))]
        taken = {it.name for it in items}
        items += [
            _Item(None, b.name, skill_element(b.name, b.description, "builtin"))
            for b in self.builtin_skills
            if b.name not in taken
        ]
        limit = BUDGET if budget is None else budget
        full: list[_Item] = []
        used = 0
        for item in items:
            if used + len(item.text) + 1 > limit:
                break
            full.append(item)
            used += len(item.text) + 1
        rest = items[len(full) :]
        lines = [OPEN_TAG, *(it.text for it in full)]
        if rest:
            lines.append(MORE + ", ".join(it.name for it in rest))
        text = "\n".join([*lines, CLOSE_TAG])
        placed = [it.entry.placed for it in full if it.entry is not None]
        placed += [
            Placed(it.entry.index, "name_only", len(it.name), "", None)
            for it in rest
            if it.entry is not None
        ]
        return Layout(text, used, placed)


def _in_agent_order(entries: list[Entry]) -> list[Entry]:
    """Project skills by name; user skills folder by folder (catalog order), by name."""
    first: dict[str, int] = {}
    for e in sorted(entries, key=lambda e: e.index):
        if e.skill.source != "project":
            first.setdefault(_root(e.skill), e.index)

    def key(e: Entry) -> tuple[int, int, str]:
        s = e.skill
        group = 0 if s.source == "project" else first[_root(s)]
        return COPILOT_CLI.rank(s.source), group, s.name

    return sorted(entries, key=key)


def _root(skill: Skill) -> str:
    path, rel = skill.path or "", skill.rel_path or ""
    return path[: -len(rel)] if rel and path.endswith(rel) else path


def _copilot_cli(
    budget: int | None = None, snapshot: AgentSnapshot | str | None = "auto"
) -> CopilotCliRenderer:
    """``budget``: characters of full elements (15,000 as the agent has it). ``snapshot``
    supplies Copilot CLI's built-in skills (listed last): an AgentSnapshot, ``auto`` (the
    cached snapshot of the verified version, if any), ``none`` or a path."""
    if snapshot is None or isinstance(snapshot, str):
        snapshot = resolve_snapshot(snapshot, "copilot-cli", AGENT_VERSION)
    builtins = snapshot.builtin_skills if snapshot is not None else ()
    return CopilotCliRenderer(BUDGET if budget is None else budget, builtins)


register_profile(
    Profile(
        "copilot-cli",
        COPILOT_CLI,
        _copilot_cli,
        placement="system",
        trigger="skill_tool",
        summary="<skill> XML by scope and name; past 15,000 characters names only",
        releases=(
            Release(
                AGENT_VERSION,
                "byte-identical captures: four catalogs, all together, the 15,000 budget edge",
            ),
        ),
    )
)
