"""A writable copy of a catalog whose descriptions tune can change, one file at a time.

Each source is copied whole (scripts, references and all) under ``<dir>/<n>-<kind>``; a
description change rewrites only the file that declares it, from the original bytes, so
a variant differs from its catalog exactly in the changed files. Every write is checked by
loading the file back with the catalog loader: a description that does not round-trip is an
error, never a silent mismatch.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import InputError, SkillbenchError
from skillbench._io import file_size
from skillbench.catalog import Skill, load_catalog

_FENCE = "---"
_TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")


def one_line(text: str) -> str:
    """``text`` with whitespace runs collapsed: descriptions are single-line fields."""
    return " ".join(text.split())


class Source(NamedTuple):
    """One catalog source: its original path and kind."""

    path: Path
    kind: str


def _yaml_string(text: str) -> str:
    """A double-quoted YAML scalar (JSON string syntax is valid YAML) on one line."""
    return json.dumps(text, ensure_ascii=False)


def replace_frontmatter_description(text: str, name: str, description: str) -> str:
    """``text`` (a Markdown skill) with its ``description`` set to ``description``.

    Only the ``description`` key's lines change (a multi-line value's continuation lines go
    with it); without the key one is added after ``name``; without frontmatter a block with
    ``name`` and ``description`` is prepended, so the skill keeps its name.
    """
    line = f"description: {_yaml_string(description)}"
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != _FENCE:
        return f"{_FENCE}\nname: {_yaml_string(name)}\n{line}\n{_FENCE}\n{text}"
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == _FENCE), None)
    if end is None:
        raise SkillbenchError("unterminated frontmatter: cannot rewrite its description")
    start = next((i for i in range(1, end) if re.match(r"^description\s*:", lines[i])), None)
    if start is None:
        at = next((i + 1 for i in range(1, end) if re.match(r"^name\s*:", lines[i])), 1)
        return "".join([*lines[:at], line + "\n", *lines[at:]])
    stop = start + 1
    while stop < end and not _TOP_KEY.match(lines[stop]):
        stop += 1
    return "".join([*lines[:start], line + "\n", *lines[stop:]])


def _rewrite(path: Path, original: str, skill: Skill, description: str) -> str:
    if path.suffix == ".json":
        data = json.loads(original)
        data["description"] = description
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if path.suffix == ".jsonl":
        out = []
        for raw in original.splitlines():
            record = json.loads(raw) if raw.strip() else None
            if isinstance(record, dict) and record.get("name") == skill.name:
                record["description"] = description
                raw = json.dumps(record, ensure_ascii=False)
            out.append(raw + "\n")
        return "".join(out)
    return replace_frontmatter_description(original, skill.name, description)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _identity(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_dev, info.st_ino


def _copy_tree(
    src: Path, dest: Path, skipped: list[str], parents: frozenset[tuple[int, int]]
) -> None:
    """Copy the regular files under ``src`` (links followed, as the loader follows them).

    A FIFO, a device (a link to ``/dev/zero``), a dangling link or a link loop is never
    read: each is named in ``skipped``.
    """
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.iterdir()):
        if path.is_dir():
            identity = _identity(path)
            if identity in parents:
                skipped.append(f"{path}: directory link loop; not copied")
            else:
                _copy_tree(path, dest / path.name, skipped, parents | {identity})
            continue
        try:
            file_size(path)
        except InputError as exc:
            skipped.append(f"{exc}; not copied")
            continue
        shutil.copy2(path, dest / path.name)


class CatalogCopy:
    """Sources copied under ``root``; ``apply`` sets descriptions in the copy.

    Only regular files are copied (``skipped`` names everything else), and ``root`` may not
    lie inside a source: the copy would then copy itself.

    Args:
        sources: the catalog's sources, in config order.
        root: an empty or missing directory to copy into.

    Raises:
        SkillbenchError: ``root`` is inside one of the sources.
    """

    def __init__(self, sources: Sequence[Source], root: Path) -> None:
        self.root = root
        self.sources = list(sources)
        self.copies: list[tuple[Path, str]] = []
        self.skipped: list[str] = []
        real_root = Path(os.path.realpath(root))
        for source in self.sources:
            if source.path.is_dir() and _inside(real_root, Path(os.path.realpath(source.path))):
                raise SkillbenchError(
                    f"output {root} is inside the catalog source {source.path}: the copy would "
                    "copy itself; choose -o outside the catalog"
                )
        for index, source in enumerate(self.sources):
            name = source.path.name or "source"
            dest = root / f"{index}-{source.kind}" / (name if source.path.is_file() else "")
            if source.path.is_dir():
                top = frozenset({_identity(source.path)})
                _copy_tree(source.path, dest, self.skipped, top)
            else:
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source.path, dest)
            self.copies.append((dest, source.kind))
        self._originals: dict[Path, str] = {}
        self._current: dict[str, str] = {}

    def copy_of(self, original: str) -> Path:
        """Where the copy of the original file ``original`` lives."""
        path = Path(os.path.abspath(original))
        for source, (dest, _) in zip(self.sources, self.copies, strict=True):
            base = Path(os.path.abspath(source.path))
            if path == base:
                return dest
            if base in path.parents:
                return dest / path.relative_to(base)
        raise SkillbenchError(f"{original} is not under any source of the catalog")

    def apply(self, changes: Mapping[str, str], skills: Mapping[str, Skill]) -> None:
        """Make the copy hold exactly ``changes`` (name → description) over the originals."""
        touched = set(changes) | set(self._current)
        for name in sorted(touched):
            skill = skills[name]
            if skill.path is None:
                raise SkillbenchError(f"skill {name!r} has no file to rewrite")
            target = self.copy_of(skill.path)
            if target not in self._originals:
                self._originals[target] = target.read_text(encoding="utf-8")
            original = self._originals[target]
            if name in changes:
                text = one_line(changes[name])
                target.write_text(_rewrite(target, original, skill, text), "utf-8")
                self._check(target, name, text)
            else:
                target.write_text(original, encoding="utf-8")
        self._current = dict(changes)

    @staticmethod
    def _check(target: Path, name: str, description: str) -> None:
        loaded = load_catalog([str(target)]).get(name)
        if loaded is None or loaded.description != description:
            got = None if loaded is None else loaded.description
            raise SkillbenchError(
                f"{target}: the rewritten description of {name!r} does not load back (got {got!r})"
            )

    def changed_files(self) -> dict[Path, Path]:
        """Copy path → original path of every file the current changes rewrote."""
        out = {}
        for target in self._originals:
            for source, (dest, _) in zip(self.sources, self.copies, strict=True):
                if target == dest:
                    out[target] = source.path
                elif dest in target.parents:
                    out[target] = source.path / target.relative_to(dest)
        return {c: o for c, o in out.items() if c.read_text("utf-8") != self._originals[c]}

    def source_pairs(self) -> list[tuple[str, str]]:
        """``(path, kind)`` of each copied source, for a run config."""
        return [(str(dest), kind) for dest, kind in self.copies]
