"""How one agent turns its skill sources into a catalog: scan order, collisions, ``paths``.

A rule is data. Sources are always scanned in the agent's own order of source kinds, so the
order in which a user lists sources on a command line or in a config never changes who wins;
two sources of the same kind keep their given order among themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from skillbench._plugins import instance_of
from skillbench._registry import Registry
from skillbench._sanitize import NameRule, TextRule
from skillbench.catalog._skill import SourceKind
from skillbench.catalog._types import ByteOrderMark, EmptyFields, LinkPolicy, LoadRules
from skillbench.catalog._walk import MAX_DEPTH, MAX_DIRS

Dedupe = Literal[
    "name_and_path",
    "exact_name_and_path",
    "lowercase_name_and_path",
    "folder_and_path",
    "path",
    "keys",
]
"""``name_and_path``: one skill per normalised name and per real file; ``exact_name_and_path``:
one per name as written (``a_b``, ``a-b`` and ``A-b`` are three) and per real file;
``lowercase_name_and_path``: one per lower-cased name (``A-b`` and ``a-b`` are one, ``a_b``
another) and per real file;
``folder_and_path``:
one skill per folder name (``plugin:folder`` for a plugin) and per real file, as an agent that
names a skill by its folder keeps two folders declaring the same ``name``;
``path``: only the same real file collapses, so two skills may share a name (each keeps its
own file); ``keys``: a skill answers to its name and its folder's name (``skill_keys``), and
is left out once skills loaded after it took each of those (``kept_by_keys``)."""

PathsRule = Literal["cwd", "touched", "ignored"]
"""When a skill with ``paths`` globs is listed: ``cwd`` when the working directory holds a
matching file; ``touched`` only after the session touches a matching file (never at the start
of a replayed session); ``ignored`` always (the agent does not read the field)."""


@dataclass(frozen=True, slots=True)
class Precedence:
    """One agent's loading rules.

    Attributes:
        name: the agent (profile) the rule belongs to.
        kind_order: source kinds from first-scanned to last; a kind not in it scans last.
        later_wins: True when a later source overrides an earlier one.
        summary: the rule in words, used in override reasons.
        dedupe: what counts as the same skill (see ``Dedupe``).
        paths: when ``paths`` skills are listed (see ``PathsRule``).
        paths_ignored_for: source kinds whose ``paths`` the agent does not read (listed
            from the start).
        namespace_plugins: plugin skills are named ``plugin-name:skill`` (the plugin's
            manifest name), so they never collide with user or project skills.
        flat_files: top-level ``*.md`` files of every source are skills, not only
            ``<name>/SKILL.md`` folders.
        links: which symlinks the walk follows (loops are never entered).
        strict_limits: over-long names and descriptions and missing descriptions reject the
            skill instead of only warning.
        names: the rule a SKILL.md ``name`` must follow (see ``NameRule``).
        text: which invisible characters names and descriptions keep (see ``TextRule``).
        byte_order_mark: what a UTF-8 byte-order mark opening a skill file is (see
            ``ByteOrderMark``).
        nested: a SKILL.md inside another skill's folder is a skill of its own (False: it is
            one of that skill's files, never listed).
        reads_disable: the agent honours ``disable-model-invocation`` (False: it lists such
            a skill like any other).
        depth: the deepest folder level below a source where the agent reads a
            ``SKILL.md`` (1: ``<root>/<name>/SKILL.md``; None: any the walk reaches).
        walk_depth / walk_dirs: the limits of the agent's own directory walk (levels below
            a root, directories per root, breadth first); other agents get skillbench's
            bounds.
        front_matter: how the agent reads a skill file (``FRONT_MATTER_READERS``).
        folders: which directories its walk enters (``FOLDER_RULES``).
        walk: the order the agent loads one folder's skills in, by path below the folder
            (``ascending``, ``descending``; ``path_text``: the path as one text in code points,
            so ``a-b/`` comes before ``a/``) or as the file system lists the folder's entries
            (``directory``: an agent that reads a directory unsorted; the order of the
            folder as installed, so only a render of that folder has it); with
            ``later_wins`` the later of two same-named skills in a folder wins.
        empty_fields: what it lists for a name or description written empty (``EmptyFields``).
        required: front matter keys it needs as strings: a file missing one, or holding
            another type (a number, a list), is not loaded.
        contained: source kinds whose skills must lie, by real path, inside the source
            folder: a linked skill folder leading out of it is not loaded.
        clash: ``racy`` where which of two same-named skills the agent keeps is not fixed
            (it reads files concurrently and keeps the one read last): the catalog keeps
            ``later_wins``'s choice, and a fidelity check takes the one the agent listed.
    """

    name: str
    kind_order: tuple[SourceKind, ...]
    later_wins: bool
    summary: str
    dedupe: Dedupe = "name_and_path"
    paths: PathsRule = "cwd"
    paths_ignored_for: tuple[SourceKind, ...] = ()
    namespace_plugins: bool = False
    flat_files: bool = False
    links: LinkPolicy = "follow"
    strict_limits: bool = False
    names: NameRule = "agent-skills"
    text: TextRule = "printable"
    byte_order_mark: ByteOrderMark = "skipped"
    nested: bool = True
    reads_disable: bool = True
    depth: int | None = None
    walk_depth: int = MAX_DEPTH
    walk_dirs: int = MAX_DIRS
    front_matter: str = "yaml"
    folders: str = "visible"
    walk: Literal["ascending", "descending", "path_text", "directory"] = "ascending"
    empty_fields: EmptyFields = "derived"
    required: tuple[str, ...] = ()
    clash: Literal["fixed", "racy"] = "fixed"
    contained: tuple[SourceKind, ...] = ()

    def load_rules(self, kind: SourceKind) -> LoadRules:
        """What the loader accepts from a source of ``kind``.

        A ``bundled`` source stands for skills compiled into the agent: always flat files, and
        followed links only for an agent that follows every link.
        """
        bundled = kind == "bundled"
        links: LinkPolicy = "none" if bundled and self.links != "follow" else self.links
        return LoadRules(
            self.flat_files or bundled,
            links,
            self.strict_limits,
            self.names,
            self.nested,
            self.name,
            self.depth,
            self.walk_depth,
            self.walk_dirs,
            self.front_matter,
            self.folders,
            self.text,
            self.byte_order_mark,
            self.empty_fields,
            self.required,
            kind in self.contained,
        )

    def rank(self, kind: SourceKind) -> int:
        return self.kind_order.index(kind) if kind in self.kind_order else len(self.kind_order)

    def order(self, kinds: Sequence[SourceKind]) -> list[int]:
        """Indices of ``kinds`` (sources as given) in the agent's scan order."""
        return sorted(range(len(kinds)), key=lambda i: (self.rank(kinds[i]), i))


PRECEDENCE: Registry[Precedence] = Registry(
    "profile", adopt=instance_of(Precedence, via="precedence")
)
"""Loading rules of the built-in agents, by profile name."""


def _register(rule: Precedence) -> Precedence:
    return PRECEDENCE.register(rule.name)(rule)


CODEBOT = _register(
    Precedence(
        "codebot",
        ("bundled", "managed", "user", "extra", "project", "plugin"),
        True,
        "codebot: a later source overrides an earlier one (bundled, user, project, plugin)",
    )
)
