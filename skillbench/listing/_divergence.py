"""Where an agent lists a skill differently from what its author wrote.

"What the author wrote" is the skill file as the YAML specification reads it, every
``SKILL.md`` at any depth a skill of its own under the name in its front matter. Each agent's
view (its own reader, walk, name rule and budget, at its verified release) is held against
that: a folded block one agent reads with its line break kept, a nested skill one agent never
finds, a name one agent rewrites or rejects, a skill past an agent's budget or overflow cap.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from skillbench._sanitize import clip
from skillbench.catalog import PRECEDENCE, SOURCE_KINDS, Precedence, Skill, load_catalog
from skillbench.catalog._types import SourceSpec
from skillbench.listing._portability import AgentView

DivergenceKind = Literal["undiscovered", "rejected", "renamed", "reads_differently", "dropped"]
"""``undiscovered``: the agent reads the folder but its walk never reaches the file;
``rejected``: its loader refuses the file; ``renamed``: it lists the skill under another
name; ``reads_differently``: its reader returns another description; ``dropped``: its
listing leaves the skill out (budget, overflow cap)."""

AS_WRITTEN = Precedence(
    "as-written",
    SOURCE_KINDS,
    False,
    "as written: every SKILL.md at any depth, read as YAML",
    dedupe="path",
    names="listed",
)
"""The author's reading: strict YAML, any depth, no name rule beyond one printable line."""

_CONTEXT = 24
"""Characters shown before the first difference of two readings."""


@dataclass(frozen=True)
class Divergence:
    """One way some agents list one skill differently from what its author wrote.

    Attributes:
        path: the skill's file.
        name: the name its author gave it.
        kind: what differs (``DivergenceKind``).
        agents: ``agent version`` of every agent it applies to.
        detail: what those agents do instead, in words.
        field: the front-matter key concerned (None: the file as a whole).
    """

    path: str
    name: str
    kind: DivergenceKind
    agents: tuple[str, ...]
    detail: str
    field: str | None = None

    @property
    def message(self) -> str:
        return f"{', '.join(self.agents)}: {self.detail}"


def _as_read(skill: Skill, attr: str) -> str:
    value = skill.listed.get(attr, getattr(skill, attr))
    return value if isinstance(value, str) else ""


def _shown(text: str, start: int = 0) -> str:
    """``text`` from ``start`` as one printable quoted line (a line break shows as ``\\n``)."""
    head = "…" if start > 0 else ""
    return f"'{head}{clip(text[start:], 2 * _CONTEXT + 40)}'"


def _first_difference(a: str, b: str) -> int:
    """Where ``a`` and ``b`` part, less some context."""
    same = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return max(0, same - _CONTEXT)


def _name(path: str, authored: Mapping[str, Skill]) -> str:
    """The author's name of the skill at ``path``: its folder's where YAML refuses the file."""
    skill = authored.get(path)
    return skill.name if skill is not None else Path(path).parent.name


def _walk_reason(rule: Precedence) -> str:
    if rule.depth is not None:
        levels = "level" if rule.depth == 1 else "levels"
        return (
            f"never finds it: it reads SKILL.md at most {rule.depth} {levels} below a skills folder"
        )
    if not rule.nested:
        return "never finds it: it does not read a SKILL.md inside another skill's folder"
    return "never finds it: its walk does not reach the file"


def _one_view(
    view: AgentView, authored: Mapping[str, Skill], refused: Mapping[str, str]
) -> Iterable[tuple[str, DivergenceKind, str, str | None]]:
    """``(path, kind, detail, field)`` for every skill ``view``'s agent lists differently."""
    rule = PRECEDENCE.get(view.catalog.profile)
    unread = {n.skill.path for n in view.not_found}
    kept = {s.path: s for s in view.catalog.skills if s.path is not None}
    lost = {o.loser.path for o in view.catalog.overrides}
    errors = {d.path: d.reason for d in view.catalog.diagnostics if d.severity == "error"}
    for path, author in authored.items():
        if path in unread or path in lost:
            continue
        skill = kept.get(path)
        if skill is None:
            if path in errors:
                yield path, "rejected", f"rejects it: {errors[path]}", None
            else:
                yield path, "undiscovered", _walk_reason(rule), None
            continue
        if skill.name != author.name:
            yield path, "renamed", f"lists it as {_shown(skill.name)}", "name"
        theirs, ours = _as_read(skill, "description"), _as_read(author, "description")
        if theirs.strip() != ours.strip():  # a line break at an edge changes no meaning
            at = _first_difference(theirs, ours)
            detail = f"reads the description as {_shown(theirs, at)} (YAML: {_shown(ours, at)})"
            yield path, "reads_differently", detail, "description"
    for path, skill in kept.items():
        if path in refused:
            shown = _shown(_as_read(skill, "description"))
            detail = f"loads it as {shown} though YAML refuses it: {refused[path]}"
            yield path, "reads_differently", detail, None
    for entry in view.listing.entries:
        dropped = entry.skill.path
        if entry.status == "dropped" and dropped is not None and dropped in authored:
            why = f": {entry.reason}" if entry.reason else ""
            yield (
                dropped,
                "dropped",
                f"lists it nowhere (past its listing budget{why})",
                None,
            )


def divergences(
    sources: Sequence[SourceSpec], views: Sequence[AgentView], cwd: str | None = None
) -> list[Divergence]:
    """Every way the agents of ``views`` list the skills of ``sources`` differently from
    what their authors wrote, one record per skill, kind and detail, in file order."""
    written = load_catalog(list(sources), profile=AS_WRITTEN, cwd=cwd)
    authored = {
        s.path: s for s in written.skills if s.path is not None and Path(s.path).name == "SKILL.md"
    }
    refused = {
        d.path: d.reason
        for d in written.diagnostics
        if d.severity == "error" and Path(d.path).name == "SKILL.md"
    }
    found: dict[tuple[str, DivergenceKind, str, str | None], list[str]] = defaultdict(list)
    for view in views:
        for key in _one_view(view, authored, refused):
            found[key].append(f"{view.profile} {view.version}")
    return [
        Divergence(path, _name(path, authored), kind, tuple(agents), detail, field)
        for (path, kind, detail, field), agents in sorted(found.items(), key=lambda kv: kv[0][:2])
    ]
