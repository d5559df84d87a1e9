"""The Gemini CLI profile, as Gemini CLI 0.61.0 lists skills (checked against captured requests).

The listing is the ``<available_skills>`` block of the system instruction: one
``<skill>`` element per skill with its ``<name>``, ``<description>`` and ``<location>`` (the
absolute path of its ``SKILL.md``), nothing escaped, no budget.

- Loading: built-in skills, extensions, ``~/.gemini/skills``, ``~/.agents/skills``, then (in
  a trusted folder) ``.gemini/skills`` and ``.agents/skills``; a folder is read as
  ``SKILL.md`` and ``*/SKILL.md`` only. A later skill of the same name replaces an earlier
  one in the earlier one's place.
- Order: scope by scope as loaded; within one folder, descending by the skill's folder name
  (what captures showed for every catalog).
- Names: ``: \\ / < > * ? " |`` become ``-``; ``disable-model-invocation`` and ``paths`` are
  not read, so such skills are listed like any other.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from typing import NamedTuple

from skillbench.catalog import Precedence, Skill, SourceKind
from skillbench.listing._profile import Profile, Release, register_profile
from skillbench.listing._raw import raw_field
from skillbench.listing._renderer import Entry, Layout
from skillbench.listing._snapshot import AgentSnapshot, BuiltinSkill, resolve_snapshot
from skillbench.listing._types import EntryStatus

AGENT_VERSION = "0.61.0"
OPEN_TAG = "<available_skills>"
CLOSE_TAG = "</available_skills>"
_UNSAFE = re.compile(r'[:\\/<>*?"|]')
_ENTRY = re.compile(
    r"  <skill>\n    <name>(?P<name>.*?)</name>\n"
    r"    <description>(?P<description>.*?)</description>\n"
    r"    <location>(?P<location>[^\n]*?)</location>\n  </skill>",
    re.DOTALL,
)

GEMINI_CLI = Precedence(
    "gemini-cli",
    ("bundled", "plugin", "user", "project", "extra", "managed"),
    True,
    "gemini-cli: a later source replaces an earlier one (built-in, extension, user, workspace)",
    paths="ignored",
)


def listed_name(name: str) -> str:
    """The name as Gemini CLI lists it (characters unsafe in a file name become ``-``)."""
    return _UNSAFE.sub("-", name)


def skill_element(name: str, description: str, location: str) -> str:
    """One ``<skill>`` element, its text as is."""
    return (
        f"  <skill>\n    <name>{name}</name>\n    <description>{description}</description>\n"
        f"    <location>{location}</location>\n  </skill>"
    )


class ParsedSkill(NamedTuple):
    """One element of a captured listing."""

    name: str
    description: str
    location: str


def parse_skills(block: str) -> list[ParsedSkill]:
    """The elements of an ``<available_skills>`` block, in order."""
    return [
        ParsedSkill(*m.group("name", "description", "location")) for m in _ENTRY.finditer(block)
    ]


def _folder_key(skill: Skill) -> tuple[str, str]:
    """The folder a skill was found in and its own folder's path under it."""
    path = os.path.abspath(skill.path or skill.name)
    rel = skill.rel_path or os.path.basename(os.path.dirname(path)) + "/SKILL.md"
    root = path[: -len(rel)] if path.endswith(rel) else os.path.dirname(os.path.dirname(path))
    return root, rel


DEFAULT_ROOTS: Mapping[SourceKind, str] = {"project": ".gemini/skills", "user": "~/.gemini/skills"}
"""Where each source kind lives on a user's machine (Gemini CLI prints the absolute path; a
render can pass the real folders, as a fidelity check does), so no checkout path of the
catalog's leaks into a listing."""


@dataclass(frozen=True)
class GeminiCliRenderer:
    """See the module docstring.

    Args:
        builtin_skills: Gemini CLI's own skills (from a snapshot), listed first.
        roots: the folder of each source kind, as the locations show it.
    """

    builtin_skills: tuple[BuiltinSkill, ...] = ()
    roots: Mapping[SourceKind, str] = field(default_factory=lambda: dict(DEFAULT_ROOTS))
    default_budget: int | None = None
    name: str = "gemini-cli"
    budgeted: bool = False
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False
    lists_disabled: bool = True

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        return {}

    def hidden(self, skill: Skill) -> str | None:
        if skill.path is not None and os.path.basename(skill.path) != "SKILL.md":
            return "Gemini CLI loads only SKILL.md files, not other skill declarations"
        return None

    def shown_path(self, skill: Skill) -> str | None:
        root = self.roots.get(skill.source)
        if skill.rel_path is None or root is None:
            return os.path.abspath(skill.path) if skill.path else None
        return f"{root}/{skill.rel_path}"

    def entry(self, skill: Skill, index: int) -> Entry:
        location = self.shown_path(skill) or ""
        description = raw_field(skill, "description", skill.description)
        text = skill_element(listed_name(skill.name), description, location)
        return Entry(skill, index, text, "full", description)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        entries = _in_agent_order(list(ordered))
        slots: dict[str, str | Entry] = {
            b.name: skill_element(b.name, b.description, b.path or "") for b in self.builtin_skills
        }
        for e in entries:
            slots[listed_name(e.skill.name)] = e
        if not slots:
            return Layout("", None, [])
        texts = [s if isinstance(s, str) else s.text for s in slots.values()]
        text = OPEN_TAG + "\n" + "\n".join(texts) + "\n" + CLOSE_TAG
        return Layout(text, None, [s.placed for s in slots.values() if isinstance(s, Entry)])


def _in_agent_order(entries: list[Entry]) -> list[Entry]:
    """Scope by scope (the agent's scan order), folder by folder in catalog order; within
    one, descending by folder name (compared as names: ``code-review-excellence`` before
    ``code-review``)."""
    first: dict[str, int] = {}
    for e in sorted(entries, key=lambda e: e.index):
        first.setdefault(_folder_key(e.skill)[0], e.index)

    def group(e: Entry) -> tuple[int, int]:
        return GEMINI_CLI.rank(e.skill.source), first[_folder_key(e.skill)[0]]

    ordered: list[Entry] = []
    for _, members in groupby(sorted(entries, key=group), key=group):
        ordered += sorted(members, key=lambda e: _folder_key(e.skill)[1].split("/"), reverse=True)
    return ordered


def _gemini_cli(
    snapshot: AgentSnapshot | str | None = "auto", roots: Mapping[SourceKind, str] | None = None
) -> GeminiCliRenderer:
    """``snapshot`` supplies Gemini CLI's built-in skills (listed first): an AgentSnapshot,
    ``auto`` (the cached snapshot of the verified version, if any), ``none`` or a path to a
    ``snapshot.json``. ``roots`` replaces the folders the locations start with."""
    if snapshot is None or isinstance(snapshot, str):
        snapshot = resolve_snapshot(snapshot, "gemini-cli", AGENT_VERSION)
    builtin = snapshot.builtin_skills if snapshot is not None else ()
    return GeminiCliRenderer(builtin, {**DEFAULT_ROOTS, **(roots or {})})


register_profile(
    Profile(
        "gemini-cli",
        GEMINI_CLI,
        _gemini_cli,
        placement="system",
        trigger="skill_tool",
        summary="every skill in full as <skill> XML, built-ins first, no budget",
        releases=(
            Release(
                AGENT_VERSION,
                "byte-identical captures: four public catalogs, all together, a 2-skill catalog",
            ),
        ),
    )
)
