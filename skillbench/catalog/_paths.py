"""``paths`` activation: a skill with gitignore-style globs is listed only when the working
directory holds a matching file.

Pattern rules (gitignore): a pattern without an inner ``/`` matches a name at any depth; with
one (or a leading ``/``) it is anchored at the working directory; ``*`` and ``?`` stay within
one path component, ``**`` spans components; a pattern matching a directory matches every
file below it; ``!pattern`` excludes again (the last matching pattern decides).

Matching never backtracks catastrophically: a pattern is not turned into a regular
expression (``*a*a*a*a*b`` or ``**/**/**`` would make Python's backtracking engine take
exponential time) but matched directly: within a component with the classic one-star
backtracking scan (time bounded by component length × pattern length), across components by
tracking the set of reachable pattern positions (bounded by components × pattern parts).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from skillbench.catalog._walk import walk

_STAR = "*"
_ANY = "?"
_GLOBSTAR = "**"


@dataclass(frozen=True, slots=True)
class _Class:
    """A bracket expression: ``[abc]``, ``[a-z]``, ``[!ch]``."""

    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    negate: bool

    def accepts(self, char: str) -> bool:
        inside = char in self.chars or any(lo <= char <= hi for lo, hi in self.ranges)
        return inside != self.negate


_Token = str | _Class
"""One pattern token: ``_STAR``, ``_ANY``, a literal one-character string, or a class."""


def _bracket(body: str) -> _Class:
    negate = body[0] in "!^"
    body = body[1:] if negate else body
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            ranges.append((body[i], body[i + 2]))
            i += 3
        else:
            chars.add(body[i])
            i += 1
    return _Class(frozenset(chars), tuple(ranges), negate)


def _tokens(segment: str) -> tuple[_Token, ...]:
    out: list[_Token] = []
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "[" and (close := segment.find("]", i + 2)) > 0:
            out.append(_bracket(segment[i + 1 : close]))
            i = close
        elif char == "*":
            if not out or out[-1] != _STAR:  # ``**`` inside a name is one star
                out.append(_STAR)
        else:
            out.append(char)
        i += 1
    return tuple(out)


def _component(tokens: tuple[_Token, ...], name: str) -> bool:
    """Whether ``name`` matches ``tokens``; backtracks only to the most recent star."""
    t = i = 0
    star, resume = -1, 0
    while i < len(name):
        token = tokens[t] if t < len(tokens) else None
        if token == _STAR:
            star, resume, t = t, i, t + 1
        elif token is not None and (
            token == _ANY
            or token == name[i]
            or (isinstance(token, _Class) and token.accepts(name[i]))
        ):
            t, i = t + 1, i + 1
        elif star >= 0:
            resume += 1
            t, i = star + 1, resume
        else:
            return False
    return all(token == _STAR for token in tokens[t:])


@dataclass(frozen=True, slots=True)
class Glob:
    """A compiled gitignore-style pattern (without ``!``).

    Attributes:
        parts: per path component, ``None`` for ``**`` or the component's tokens.
    """

    parts: tuple[tuple[_Token, ...] | None, ...]

    def _closure(self, states: set[int]) -> set[int]:
        out = set(states)
        for state in sorted(states):
            while state < len(self.parts) and self.parts[state] is None:
                state += 1
                out.add(state)
        return out

    def start(self) -> frozenset[int]:
        """Pattern positions reachable before any path component."""
        return frozenset(self._closure({0}))

    def step(self, states: frozenset[int], name: str) -> frozenset[int]:
        """Positions reachable from ``states`` after the path component ``name``."""
        end = len(self.parts)
        after: set[int] = set()
        for state in states:
            if state == end:
                continue
            part = self.parts[state]
            if part is None:
                after.add(state)
            elif _component(part, name):
                after.add(state + 1)
        return frozenset(self._closure(after))

    def selects(self, rel_path: str) -> bool:
        """Whether the pattern matches ``rel_path`` or one of its parent directories."""
        end = len(self.parts)
        states = self.start()
        for name in rel_path.split("/"):
            states = self.step(states, name)
            if end in states:
                return True
            if not states:
                return False
        return False


@lru_cache(maxsize=1024)
def compile_glob(pattern: str) -> Glob:
    """The matcher for a gitignore-style ``pattern`` (without ``!``)."""
    body = pattern.strip()
    anchored = "/" in body.rstrip("/")
    names = [p for p in body.strip("/").split("/") if p]
    parts: list[tuple[_Token, ...] | None] = [] if anchored else [None]
    parts += [None if name == _GLOBSTAR else _tokens(name) for name in names]
    if names and names[-1] == _GLOBSTAR:  # ``dir/**``: something inside, not ``dir`` itself
        parts[-1:] = [(_STAR,), None]
    return Glob(tuple(parts))


def matches(patterns: Sequence[str], rel_path: str) -> bool:
    """Whether ``rel_path`` (POSIX, relative) or one of its parent directories is selected."""
    selected = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        glob = pattern[1:] if negate else pattern
        if glob.strip() and compile_glob(glob).selects(rel_path):
            selected = not negate
    return selected


class _Dir(NamedTuple):
    """A directory of the working tree: its file names and its subdirectories by name."""

    files: tuple[str, ...]
    dirs: tuple[tuple[str, _Dir], ...]


@lru_cache(maxsize=16)
def _tree(cwd_real: str) -> _Dir:
    """The files under ``cwd_real`` as a directory tree, within the walk limits (cached)."""
    files: dict[tuple[str, ...], tuple[str, ...]] = {}
    children: dict[tuple[str, ...], list[str]] = {}
    for folder in walk(cwd_real, lambda _name, _depth: True, [], max_depth=6, max_dirs=2000):
        files[folder.rel] = folder.files
        if folder.rel:
            children.setdefault(folder.rel[:-1], []).append(folder.rel[-1])

    def build(rel: tuple[str, ...]) -> _Dir:
        below = tuple((name, build((*rel, name))) for name in children.get(rel, ()))
        return _Dir(files.get(rel, ()), below)

    return build(())


_SELECTED: frozenset[int] = frozenset({-1})
"""The state set of a pattern that selected a directory: every file below it is selected."""


class _Rule(NamedTuple):
    negate: bool
    glob: Glob


def _rules(patterns: Sequence[str]) -> list[_Rule]:
    out = []
    for pattern in patterns:
        negate = pattern.startswith("!")
        body = pattern[1:] if negate else pattern
        if body.strip():
            out.append(_Rule(negate, compile_glob(body)))
    return out


def any_match(patterns: Sequence[str], cwd: str | os.PathLike[str]) -> bool:
    """Whether some file under ``cwd`` matches ``patterns`` (as ``matches`` decides it).

    The tree is walked once per cwd (cached) and each pattern advances through it directory
    by directory, stepping on each distinct (states, name) once: a directory's path is not
    re-matched for every file in it, and a subtree no positive pattern can reach is skipped.
    """
    rules = _rules(patterns)
    if not rules:
        return False
    steps: dict[tuple[int, frozenset[int], str], frozenset[int]] = {}

    def step(i: int, states: frozenset[int], name: str) -> frozenset[int]:
        if states is _SELECTED:
            return states
        key = (i, states, name)
        found = steps.get(key)
        if found is None:
            glob = rules[i].glob
            found = glob.step(states, name)
            found = _SELECTED if len(glob.parts) in found else found
            steps[key] = found
        return found

    def search(node: _Dir, states: list[frozenset[int]]) -> bool:
        for name in node.files:
            selected = False
            for i, rule in enumerate(rules):
                if step(i, states[i], name) is _SELECTED:
                    selected = not rule.negate
            if selected:
                return True
        for name, child in node.dirs:
            below = [step(i, states[i], name) for i in range(len(rules))]
            reachable = any(below[i] and not rule.negate for i, rule in enumerate(rules))
            if reachable and search(child, below):
                return True
        return False

    return search(_tree(os.path.realpath(cwd)), [r.glob.start() for r in rules])


def clear_paths_cache() -> None:
    """Forget cached file trees (after files were created under a cwd already scanned)."""
    _tree.cache_clear()
