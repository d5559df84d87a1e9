"""``paths`` activation: a skill with gitignore-style globs is listed only when the working
directory holds a matching file.

Pattern rules (gitignore): a pattern without an inner ``/`` matches a name at any depth; with
one (or a leading ``/``) it is anchored at the working directory; ``*`` and ``?`` stay within
one path component, ``**`` spans components; a pattern matching a directory matches every
file below it; ``!pattern`` excludes again (the last matching pattern decides).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import lru_cache

from skillbench.catalog._walk import walk


def _segment(segment: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (close := segment.find("]", i + 2)) > 0:
            body = segment[i + 1 : close]
            body = "^" + body[1:] if body[0] in "!^" else body
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = close
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def compile_glob(pattern: str) -> re.Pattern[str]:
    """The regex a gitignore-style ``pattern`` (without ``!``) matches relative paths with."""
    body = pattern.strip()
    anchored = "/" in body.rstrip("/")
    parts = [p for p in body.strip("/").split("/") if p]
    regex = "" if anchored else "(?:.*/)?"
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            regex += ".*" if last else "(?:[^/]+/)*"
        else:
            regex += _segment(part) + ("" if last else "/")
    return re.compile(regex + "$")


def matches(patterns: Sequence[str], rel_path: str) -> bool:
    """Whether ``rel_path`` (POSIX, relative) or one of its parent directories is selected."""
    parts = rel_path.split("/")
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    selected = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        glob = pattern[1:] if negate else pattern
        if glob.strip() and any(compile_glob(glob).match(c) for c in candidates):
            selected = not negate
    return selected


@lru_cache(maxsize=16)
def _files(cwd_real: str) -> tuple[str, ...]:
    """Relative POSIX paths of the files under ``cwd_real``, within the walk limits (cached)."""
    folders = walk(cwd_real, lambda _name, _depth: True, [])
    return tuple("/".join((*f.rel, name)) for f in folders for name in f.files)


def any_match(patterns: Sequence[str], cwd: str | os.PathLike[str]) -> bool:
    """Whether some file under ``cwd`` matches ``patterns``; file lists are cached per cwd."""
    return any(matches(patterns, rel) for rel in _files(os.path.realpath(cwd)))


def clear_paths_cache() -> None:
    """Forget cached file lists (after files were created under a cwd already scanned)."""
    _files.cache_clear()
