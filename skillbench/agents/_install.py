"""Installing skill sources where an agent looks for them, without copying what it never reads.

A capture, ``fidelity --agent`` and every decision of the live ``agent`` selector install the
sources in a temporary HOME and project. Skill folders are untrusted: a link to ``/usr`` or
``/proc/self`` inside one, or a sparse file of a gigabyte, must neither be copied nor make the
copy run for minutes. So only regular files are copied, links are never followed out of a
skill folder (a link to a file or folder inside it is kept as a link), a file over
``MAX_FILE_BYTES`` is left out, and an install stops with an error naming the folder past
``MAX_INSTALL_BYTES`` or ``MAX_INSTALL_FILES``. Everything left out is a note the capture
reports.

A skill folder that is itself a link (users keep skills in a dotfiles repository and link
them in) is installed as a link too, to a bounded copy of its target kept beside the
workspace, so the agent meets the same shape it meets on the user's machine.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench._io import MiB
from skillbench.catalog import MAX_DEPTH, MAX_DIRS

SKILL_FILE = "SKILL.md"
MAX_FILE_BYTES = 8 * MiB
"""Largest file installed: the catalog reads no bigger SKILL.md (real ones are under 100 KB)."""
MAX_INSTALL_BYTES = 256 * MiB
"""Largest install: the four shared catalogs together copy about 6 MB."""
MAX_INSTALL_FILES = 20_000
"""Most files one install copies."""

_NOTES: ContextVar[list[str] | None] = ContextVar("install_notes", default=None)


@contextmanager
def install_notes() -> Iterator[list[str]]:
    """Collect what installs inside the block left out (one line each, naming the path)."""
    notes: list[str] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)


def _note(text: str) -> None:
    notes = _NOTES.get()
    if notes is not None and text not in notes:
        notes.append(text)


class Installer:
    """One install's bounds and its holding folder for the targets of linked skill folders."""

    def __init__(self, holding: Path) -> None:
        self.holding = holding
        self.files = 0
        self.bytes = 0
        self.installed: dict[str, Path] = {}
        """Real path of each skill folder installed → where, so links to it stay links."""

    def copy_folder(self, folder: Path, destination: Path) -> None:
        """Copy ``folder``'s regular files and subfolders into ``destination``; links are kept
        only when they stay inside ``folder``, special files are left out."""
        inside = os.path.realpath(folder)
        queue = deque([(folder, destination)])
        while queue:
            here, there = queue.popleft()
            there.mkdir(parents=True, exist_ok=True)
            for entry in _entries(here):
                target = there / entry.name
                if entry.is_symlink():
                    self._link(Path(entry.path), target, inside)
                elif entry.is_dir(follow_symlinks=False):
                    queue.append((Path(entry.path), target))
                elif entry.is_file(follow_symlinks=False):
                    self._file(Path(entry.path), target, folder)
                else:
                    _note(f"{entry.path}: not a regular file; not installed")

    def linked_skill(self, link: Path, destination: Path) -> None:
        """Install the skill folder ``link`` points to as a link to its installed copy (a
        bounded copy beside the workspace when the folder is not installed otherwise)."""
        real = os.path.realpath(link)
        copy = self.installed.get(real)
        if copy is None:
            digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:12]
            copy = self.holding / f"{digest}-{Path(real).name}"
            self.installed[real] = copy
            if not copy.exists():
                self.copy_folder(Path(real), copy)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.symlink_to(copy, target_is_directory=True)

    def _file(self, path: Path, target: Path, folder: Path) -> None:
        size = path.lstat().st_size
        if size > MAX_FILE_BYTES:
            _note(f"{path}: {size:,} bytes, over the {MAX_FILE_BYTES:,} allowed; not installed")
            return
        self.files += 1
        self.bytes += size
        if self.files > MAX_INSTALL_FILES or self.bytes > MAX_INSTALL_BYTES:
            raise SkillbenchError(
                f"{folder}: installing it passes {MAX_INSTALL_FILES:,} files or "
                f"{MAX_INSTALL_BYTES // MiB} MB; install fewer skills at a time"
            )
        _copy_bytes(path, target)

    def _link(self, link: Path, target: Path, inside: str) -> None:
        real = os.path.realpath(link)
        if real != inside and not real.startswith(inside + os.sep):
            _note(f"{link}: a link out of its skill folder (to {real}); not followed")
            return
        relative = os.path.relpath(real, os.path.realpath(link.parent))
        target.symlink_to(relative)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return sorted(found, key=lambda e: e.name)
    except OSError as exc:
        _note(f"{folder}: cannot list ({exc.strerror}); not installed")
        return []


def _copy_bytes(path: Path, target: Path) -> None:
    """Copy one regular file, opened without following a link swapped in since the check."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        _note(f"{path}: cannot read ({exc.strerror}); not installed")
        return
    with os.fdopen(fd, "rb") as source:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            _note(f"{path}: not a regular file; not installed")
            return
        data = source.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        _note(f"{path}: grew past {MAX_FILE_BYTES:,} bytes while read; not installed")
        return
    target.write_bytes(data)


def _is_skill_folder(path: str) -> bool:
    return os.path.isfile(os.path.join(path, SKILL_FILE))


def skill_folders(root: Path) -> Iterator[tuple[Path, tuple[str, ...], bool]]:
    """``(folder, parts below root, is a link)`` for every outermost skill folder under
    ``root``, breadth first in name order, within the catalog's walk limits (depth, folder
    count, hidden folders skipped). A link is followed only to a folder holding a
    ``SKILL.md`` (a linked skill folder), never to walk through."""
    if _is_skill_folder(str(root)):
        yield root, (), False
        return
    queue: deque[tuple[Path, tuple[str, ...]]] = deque([(root, ())])
    scanned = 0
    while queue:
        here, rel = queue.popleft()
        scanned += 1
        if scanned > MAX_DIRS:
            _note(f"{here}: not scanned, {root} reached the {MAX_DIRS:,}-folder limit")
            return
        for entry in _entries(here):
            parts = (*rel, entry.name)
            if entry.name.startswith("."):
                continue
            if entry.is_symlink():
                if entry.is_dir() and _is_skill_folder(entry.path):
                    yield Path(entry.path), parts, True
                elif entry.is_dir():
                    _note(f"{entry.path}: a link to a folder that is not a skill; not followed")
                continue
            if not entry.is_dir(follow_symlinks=False):
                continue
            if _is_skill_folder(entry.path):
                yield Path(entry.path), parts, False
            elif len(parts) < MAX_DEPTH:
                queue.append((Path(entry.path), parts))


def install_skills(source: Path, target: Path, holding: Path) -> None:
    """Install every outermost skill folder under ``source`` into ``target`` by its own name,
    as a user installs a collection of skills (every agent is given the same folders); what
    lies inside a skill folder, nested skills included, travels with it, and the agent's own
    discovery decides what it finds there. Two skill folders landing on one path are an
    error, never an overwrite."""
    root = source.expanduser()
    if not root.is_dir():
        raise SkillbenchError(f"{source}: not a folder of skills")
    installer = Installer(holding)
    target.mkdir(parents=True, exist_ok=True)
    found = list(skill_folders(root))
    for folder, _, is_link in found:
        destination = target / folder.name
        if os.path.lexists(destination):
            raise SkillbenchError(
                f"{folder}: a skill folder named {folder.name!r} already came from another source"
            )
        if not is_link:
            installer.copy_folder(folder, destination)
            installer.installed[os.path.realpath(folder)] = destination
    for folder, _, is_link in found:
        if is_link:
            installer.linked_skill(folder, target / folder.name)
