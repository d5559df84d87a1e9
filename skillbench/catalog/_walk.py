"""A bounded directory walk, shared by skill discovery and ``paths`` matching.

Limits: a depth below the root and a number of directories per root, breadth first, hidden
directories skipped. An agent whose loader has such limits (``Precedence.walk_depth``
and ``walk_dirs``) walks with its own; every other walk stops at ``MAX_DEPTH`` and ``MAX_DIRS``,
bounds no real catalog reaches, so an untrusted tree cannot make a load run for minutes.
Symlinks are followed as the agent follows them (``LinkPolicy``), also
when they lead outside the root: users keep skills in a dotfiles repository and link them in.
A directory link back to one of its own ancestors (by real path) is a loop and is not entered.
Every directory left out by a limit is named in its own diagnostic.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from skillbench._registry import Registry
from skillbench.catalog._types import Diagnostic, LinkPolicy

MAX_DEPTH = 16
MAX_DIRS = 100_000


@dataclass(frozen=True, slots=True)
class Folder:
    """One scanned directory: its path as reached, parts below the root, kept file names and
    each one's real path (``os.path.realpath``, known from the walk without asking again)."""

    path: str
    rel: tuple[str, ...]
    files: tuple[str, ...]
    reals: tuple[str, ...]

    def real(self, name: str) -> str:
        """The real path of the kept file ``name``."""
        return self.reals[self.files.index(name)]


def _skipped_link(path: str, is_dir: bool, links: LinkPolicy) -> Diagnostic | None:
    """The diagnostic for a symlink ``links`` does not follow, or None when it is followed."""
    if links == "follow" or (links == "directories" and is_dir):
        return None
    what = (
        "symlinks are not followed in this scope"
        if links == "none"
        else "a symlinked file is not loaded (only directory links are followed)"
    )
    return Diagnostic(path, None, f"{what}; skipped", "warning")


FolderRule = Callable[[str], bool]
"""Whether the walk enters a directory of this name (the root is always entered)."""

FOLDER_RULES: Registry[FolderRule] = Registry("folder rule")
"""Rule name → which directories an agent's walk enters (``Precedence.folders``)."""


@FOLDER_RULES.register("visible")
def _visible(name: str) -> bool:
    """Hidden directories are skipped."""
    return not name.startswith(".")


@FOLDER_RULES.register("all")
def _every(name: str) -> bool:
    """Hidden directories are entered too."""
    return True


def walk(
    root: str,
    keep_file: Callable[[str, int], bool],
    diagnostics: list[Diagnostic],
    *,
    links: LinkPolicy = "follow",
    max_depth: int = MAX_DEPTH,
    max_dirs: int = MAX_DIRS,
    sealed_by: str | None = None,
    enters: FolderRule = _visible,
) -> list[Folder]:
    """Breadth-first scan of ``root``; ``keep_file(name, depth)`` picks the files to report.

    ``enters``: which directories below the root are walked (default: not hidden ones).
    ``sealed_by``: in and below a folder holding a file of that name no folder link is
    followed (for an agent to which the rest of such a folder is only its files, a link there
    to ``/usr`` is never walked). Problems (skipped links, loops, limits) go to
    ``diagnostics``; nothing raises.
    """
    root_real = os.path.realpath(root)
    queue: deque[tuple[str, tuple[str, ...], str, frozenset[str], bool]] = deque(
        [(root, (), root_real, frozenset({root_real}), False)]
    )
    folders: list[Folder] = []
    while queue:
        if len(folders) == max_dirs:
            diagnostics.extend(
                Diagnostic(
                    path,
                    None,
                    f"not scanned: {root} reached the {max_dirs:,}-directory limit",
                    "warning",
                )
                for path, *_ in queue
            )
            break
        path, rel, real, ancestors, sealed = queue.popleft()
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError as exc:
            diagnostics.append(Diagnostic(path, None, f"cannot list: {exc.strerror}", "error"))
            continue
        sealed = sealed or (sealed_by is not None and any(e.name == sealed_by for e in entries))
        files: list[str] = []
        reals: list[str] = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:  # a link loop: handled as a file, whose read reports the loop
                is_dir = False
            if sealed and is_dir and entry.is_symlink():
                continue
            if is_dir and not enters(entry.name):
                continue
            if not is_dir and not keep_file(entry.name, len(rel)):
                continue
            target = real + os.sep + entry.name
            if entry.is_symlink():
                skipped = _skipped_link(entry.path, is_dir, links)
                if skipped is not None:
                    diagnostics.append(skipped)
                    continue
                target = os.path.realpath(entry.path)
                if is_dir and target in ancestors:
                    diagnostics.append(
                        Diagnostic(
                            entry.path, None, f"directory loop: symlink back to {target}", "error"
                        )
                    )
                    continue
            if not is_dir:
                files.append(entry.name)
                reals.append(target)
            elif len(rel) + 1 > max_depth:
                diagnostics.append(
                    Diagnostic(
                        entry.path,
                        None,
                        f"not scanned: deeper than {max_depth} levels below {root}",
                        "warning",
                    )
                )
            else:
                queue.append((entry.path, (*rel, entry.name), target, ancestors | {target}, sealed))
        folders.append(Folder(path, rel, tuple(files), tuple(reals)))
    return folders
