"""Small records the loader returns besides skills: sources, diagnostics and overrides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from skillbench._errors import SkillbenchError, suggest
from skillbench._sanitize import NameRule, TextRule, printable
from skillbench.catalog._skill import SOURCE_KINDS, Skill, SourceKind

Severity = Literal["error", "warning"]
"""``error``: the file was skipped; ``warning``: it loaded, but something in it was ignored."""


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """Where to look for skills and what kind of source that place is.

    ``path`` is a directory (SKILL.md folders, skill.json folders, flat ``*.md``) or one
    ``.md``, ``.json`` or ``.jsonl`` file.
    """

    path: str
    kind: SourceKind = "project"


def parse_source_arg(arg: str) -> SourceSpec:
    """``"user=~/skills"`` → SourceSpec(kind="user"); a bare path is a ``project`` source.

    A prefix before ``=`` counts as a kind only when it holds no path separator, so a path
    with ``=`` in a later component still reads as a path.
    """
    kind, sep, path = arg.partition("=")
    if not sep or "/" in kind or "\\" in kind:
        return SourceSpec(arg)
    if kind not in SOURCE_KINDS:
        raise SkillbenchError(
            f"unknown source kind {kind!r} in {arg!r}{suggest(kind, SOURCE_KINDS)}; "
            f"choose one of: {', '.join(SOURCE_KINDS)}"
        )
    if not path:
        raise SkillbenchError(f"source {arg!r} has no path after '='")
    return SourceSpec(path, kind)  # type: ignore[arg-type]


LinkPolicy = Literal["follow", "directories", "none"]
"""``follow``: every symlink (resolved with realpath); ``directories``: directory links only,
a linked ``SKILL.md`` is skipped; ``none``: no links at all (a scope the agent writes
itself)."""


ByteOrderMark = Literal["skipped", "kept", "refused"]
"""``skipped``: a UTF-8 byte-order mark opening a skill file is not part of its text;
``kept``: it is the text's first character (U+FEFF), so the file's first line is not the
``---`` that opens front matter and the file has none; ``refused``: the file is not loaded
(the agent's front matter must open the file)."""


@dataclass(frozen=True, slots=True)
class LoadRules:
    """What one agent's loader accepts from one source.

    Attributes:
        flat_files: top-level ``*.md`` files are skills (a flat layout, and
            skillbench's ``bundled`` sources, which stand for skills compiled into the agent);
            elsewhere only ``<name>/SKILL.md`` folders are.
        links: which symlinks the walk follows; loops are never entered.
        strict_limits: names over 64 characters and missing descriptions reject the skill;
            elsewhere they only warn.
        names: the rule a SKILL.md ``name`` must follow (a name breaking it skips the skill);
            ``listed`` also reads frontmatter strict YAML rejects as those agents do.
        nested: a SKILL.md inside another skill's folder is a skill of its own; when False it
            is one of that skill's files and is not listed.
        agent: whose rules these are (named in diagnostics).
        depth / walk_depth / walk_dirs / front_matter / folders / text / byte_order_mark /
            empty_fields / required: see ``Precedence``.
        contained: a skill file whose real path lies outside the source folder (reached
            through a link) is not loaded (``Precedence.contained`` names such sources).
    """

    flat_files: bool
    links: LinkPolicy
    strict_limits: bool
    names: NameRule
    nested: bool
    agent: str
    depth: int | None
    walk_depth: int
    walk_dirs: int
    front_matter: str
    folders: str
    text: TextRule = "printable"
    byte_order_mark: ByteOrderMark = "skipped"
    empty_fields: EmptyFields = "derived"
    required: tuple[str, ...] = ()
    contained: bool = False


EmptyFields = Literal["derived", "listed"]
"""What an agent lists for a ``name`` or ``description`` written empty (``''``): ``derived``
the folder's name and a description from the body (the skill keeps those either way);
``listed`` the empty text."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem found while loading; loading goes on with the other files.

    Attributes:
        path: the file or directory concerned.
        line: 1-based line in ``path`` when known.
        reason: what is wrong and what the loader did about it.
        severity: ``error`` when the file was skipped, ``warning`` when it still loaded.
        field: the frontmatter/JSON key concerned, when there is one.
        agent_fails: the agent fails every turn while this file is installed (it sends no
            request at all), so no listing of the catalog can match it.
    """

    path: str
    line: int | None
    reason: str
    severity: Severity
    field: str | None = None
    agent_fails: bool = False

    def __str__(self) -> str:
        """One terminal-safe line: paths and reasons from disk are escaped, never raw."""
        path = printable(self.path)
        where = path if self.line is None else f"{path}:{self.line}"
        field = None if self.field is None else printable(self.field)
        what = self.reason if field is None else f"field {field!r}: {self.reason}"
        return f"{where}: {self.severity}: {printable(what)}"


@dataclass(frozen=True, slots=True)
class Override:
    """Two skills collided (same normalised name or same real file); ``winner`` was kept."""

    name: str
    winner: Skill
    loser: Skill
    reason: str
