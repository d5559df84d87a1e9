"""Delta debugging: the smallest catalog that still shows a difference.

When the empty catalog shows it, that is the answer (the agent's own skills differ).
Else whole units are dropped (subsets, then complements, at ever finer grain), then the
usage history and environment, then lines of each file, then the tails of long lines. Every
candidate is tried by the oracle (a fresh capture), up to a number of tries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NamedTuple, TypeVar

from skillbench.fuzz._types import FuzzCatalog, FuzzFile, FuzzUnit

T = TypeVar("T")
Oracle = Callable[[FuzzCatalog], bool]
"""True when the catalog still shows the difference."""


class Shrunk(NamedTuple):
    """The smallest catalog found and how many candidates were tried."""

    catalog: FuzzCatalog
    tries: int


class _Budget:
    def __init__(self, oracle: Oracle, tries: int) -> None:
        self.oracle = oracle
        self.left = tries
        self.used = 0

    def __call__(self, catalog: FuzzCatalog) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        self.used += 1
        return self.oracle(catalog)


def ddmin(items: Sequence[T], fails: Callable[[list[T]], bool]) -> list[T]:
    """Zeller's ddmin: a 1-minimal sub-list of ``items`` for which ``fails`` holds (given
    that it holds for ``items``)."""
    current = list(items)
    n = 2
    while len(current) >= 2:
        chunk = -(-len(current) // n)
        parts = [current[i : i + chunk] for i in range(0, len(current), chunk)]
        for i, part in enumerate(parts):
            if fails(part):
                current, n = part, 2
                break
            rest = [x for j, p in enumerate(parts) if j != i for x in p]
            if len(parts) > 2 and fails(rest):
                current, n = rest, max(n - 1, 2)
                break
        else:
            if n >= len(current):
                break
            n = min(n * 2, len(current))
    return current


def _with_file(catalog: FuzzCatalog, u: int, f: int, data: bytes) -> FuzzCatalog:
    unit = catalog.units[u]
    files = list(unit.files)
    files[f] = FuzzFile(files[f].path, data)
    units = list(catalog.units)
    units[u] = replace(unit, files=tuple(files))
    return replace(catalog, units=tuple(units))


def _line_oracle(
    catalog: FuzzCatalog, u: int, f: int, fails: _Budget
) -> Callable[[list[bytes]], bool]:
    return lambda lines: fails(_with_file(catalog, u, f, b"".join(lines)))


def _shorten_lines(catalog: FuzzCatalog, fails: _Budget) -> FuzzCatalog:
    for u, unit in enumerate(catalog.units):
        for f in range(len(unit.files)):
            lines = catalog.units[u].files[f].data.splitlines(keepends=True)
            if len(lines) > 1:
                kept = ddmin(lines, _line_oracle(catalog, u, f, fails))
                catalog = _with_file(catalog, u, f, b"".join(kept))
            lines = catalog.units[u].files[f].data.splitlines(keepends=True)
            for i, line in enumerate(lines):
                while len(line) > 40 and fails.left > 0:
                    end = (
                        b"\r\n"
                        if line.endswith(b"\r\n")
                        else b"\n"
                        if line.endswith(b"\n")
                        else b""
                    )
                    shorter = line[: len(line) // 2] + end
                    candidate = b"".join([*lines[:i], shorter, *lines[i + 1 :]])
                    if not fails(_with_file(catalog, u, f, candidate)):
                        break
                    lines[i] = line = shorter
                    catalog = _with_file(catalog, u, f, candidate)
    return catalog


def shrink(catalog: FuzzCatalog, oracle: Oracle, tries: int = 60) -> Shrunk:
    """The smallest catalog found that ``oracle`` still holds for (see the module)."""
    fails = _Budget(oracle, tries)
    empty = replace(catalog, units=())
    if fails(empty):
        return Shrunk(empty, fails.used)
    units: list[FuzzUnit] = ddmin(
        catalog.units, lambda us: fails(replace(catalog, units=tuple(us)))
    )
    catalog = replace(catalog, units=tuple(units))
    if catalog.usage and fails(replace(catalog, usage={})):
        catalog = replace(catalog, usage={})
    if catalog.env and fails(replace(catalog, env={})):
        catalog = replace(catalog, env={})
    catalog = _shorten_lines(catalog, fails)
    return Shrunk(catalog, fails.used)
