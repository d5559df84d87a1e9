"""The records a fuzz run is made of: files, skills (units), catalogs."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from skillbench.catalog import SourceKind, SourceSpec


@dataclass(frozen=True)
class FuzzFile:
    """One file of a generated catalog, its path relative to its scope's folder; ``data`` is
    written as is (a BOM, CRLF and invalid UTF-8 survive)."""

    path: str
    data: bytes


@dataclass(frozen=True)
class FuzzLink:
    """A symbolic link at ``path`` pointing at ``target`` (relative, as ``ln -s`` writes it)."""

    path: str
    target: str


@dataclass(frozen=True)
class FuzzUnit:
    """What shrinking drops or keeps as a whole: one skill (or a pack, a pair of skills of one
    name, a linked folder and its target) in one scope.

    Attributes:
        scope: the source kind its files are installed as.
        shape: the shape class it exercises (``yaml:folded-strip``, ``name:dots``, …).
        files / links: what it writes under the scope's folder.
    """

    scope: SourceKind
    shape: str
    files: tuple[FuzzFile, ...]
    links: tuple[FuzzLink, ...] = ()


@dataclass(frozen=True)
class FuzzCatalog:
    """What one agent start-up is given: skills, the environment and a usage history.

    Attributes:
        label: names the catalog in progress lines and reproducers (``pack-03``).
        units: the skills.
        env: environment variables of the turn (a budget variable).
        usage: the usage history seeded where the agent keeps one.
    """

    label: str
    units: tuple[FuzzUnit, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    usage: Mapping[str, int] = field(default_factory=dict)

    @property
    def shapes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(u.shape for u in self.units))

    @property
    def skill_files(self) -> int:
        """How many skill files it writes (the skills compared)."""
        return sum(1 for u in self.units for f in u.files if f.path.lower().endswith("skill.md"))

    def write(self, root: Path) -> list[SourceSpec]:
        """Write the catalog under ``root`` (one folder per scope) and return its sources."""
        scopes: dict[SourceKind, Path] = {}
        for unit in self.units:
            base = scopes.setdefault(unit.scope, root / unit.scope)
            base.mkdir(parents=True, exist_ok=True)
            for file in unit.files:
                target = base / file.path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(file.data)
            for link in unit.links:
                where = base / link.path
                where.parent.mkdir(parents=True, exist_ok=True)
                if not os.path.lexists(where):
                    os.symlink(link.target, where)
        return [SourceSpec(str(path), scope) for scope, path in scopes.items()]


@dataclass(frozen=True)
class FuzzCase:
    """One generated case.

    Attributes:
        index / shape: its place in the run and the shape class it exercises.
        units: its skills.
        alone: it needs its own capture (size and budget are the point).
        env / usage: the turn's environment and usage history (alone cases only).
        solo: a key of which a pack holds one case (see ``SOLO``).
    """

    index: int
    shape: str
    units: tuple[FuzzUnit, ...]
    alone: bool = False
    env: dict[str, str] = field(default_factory=dict)
    usage: dict[str, int] = field(default_factory=dict)
    solo: str | None = None
