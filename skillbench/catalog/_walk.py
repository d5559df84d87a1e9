"""A bounded directory walk with Codex's limits, shared by skill discovery and ``paths`` matching.

Limits (FIELD-NOTES 3, Codex loader): depth 6 below the root, at most 2,000 directories per
root, hidden directories skipped. Symlinks are followed only while they stay inside the root;
a symlink back to one of its own ancestors (by real path) is a loop and is not entered.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from skillbench.catalog._types import Diagnostic

MAX_DEPTH = 6
MAX_DIRS = 2000


@dataclass(frozen=True, slots=True)
class Folder:
    """One scanned directory: its path as reached, parts below the root, and kept file names."""

    path: str
    rel: tuple[str, ...]
    files: tuple[str, ...]


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def walk(
    root: str,
    keep_file: Callable[[str, int], bool],
    diagnostics: list[Diagnostic],
    *,
    max_depth: int = MAX_DEPTH,
    max_dirs: int = MAX_DIRS,
) -> list[Folder]:
    """Breadth-first scan of ``root``; ``keep_file(name, depth)`` picks the files to report.

    Problems (escaping symlinks, loops, limits) go to ``diagnostics``; nothing raises.
    """
    root_real = os.path.realpath(root)
    queue: deque[tuple[str, tuple[str, ...], str, frozenset[str]]] = deque(
        [(root, (), root_real, frozenset({root_real}))]
    )
    folders: list[Folder] = []
    too_deep: list[str] = []
    while queue:
        if len(folders) == max_dirs:
            diagnostics.append(
                Diagnostic(
                    root,
                    None,
                    f"stopped after {max_dirs} directories; {len(queue)} queued not scanned",
                    "warning",
                )
            )
            break
        path, rel, real, ancestors = queue.popleft()
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError as exc:
            diagnostics.append(Diagnostic(path, None, f"cannot list: {exc.strerror}", "error"))
            continue
        files: list[str] = []
        for entry in entries:
            is_dir = entry.is_dir()
            if is_dir and entry.name.startswith("."):
                continue
            if not is_dir and not keep_file(entry.name, len(rel)):
                continue
            target = real + os.sep + entry.name
            if entry.is_symlink():
                target = os.path.realpath(entry.path)
                if not _inside(target, root_real):
                    diagnostics.append(
                        Diagnostic(
                            entry.path,
                            None,
                            f"symlink points outside its root to {target}",
                            "error",
                        )
                    )
                    continue
                if is_dir and target in ancestors:
                    diagnostics.append(
                        Diagnostic(
                            entry.path, None, f"directory loop: symlink back to {target}", "error"
                        )
                    )
                    continue
            if not is_dir:
                files.append(entry.name)
            elif len(rel) + 1 > max_depth:
                too_deep.append(entry.path)
            else:
                queue.append((entry.path, (*rel, entry.name), target, ancestors | {target}))
        folders.append(Folder(path, rel, tuple(files)))
    if too_deep:
        diagnostics.append(
            Diagnostic(
                too_deep[0],
                None,
                f"{len(too_deep)} director{'y' if len(too_deep) == 1 else 'ies'} deeper than "
                f"{max_depth} levels not scanned",
                "warning",
            )
        )
    return folders
