"""How an agent running on JavaScript strings measures, cuts and sorts listing text.

- Budget arithmetic counts terminal cells, not characters: East Asian wide and fullwidth
  characters and emoji count 2, combining marks, format and control characters (line
  breaks included) count 0, everything else 1.
- The per-entry cap counts UTF-16 code units (a JavaScript string's ``length``) and keeps
  ``cap - 1`` of them before the ellipsis.
- Skills of one source are listed in the order of a locale-aware comparison: punctuation
  before digits before letters, letters compared case- and accent-blind first, then by
  accent, then lower case before upper case.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

ELLIPSIS = "…"
_ZERO_WIDTH = frozenset({"Mn", "Me", "Cf", "Cc"})
_PUNCTUATION = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
"""Punctuation in the order of the Unicode collation's default table."""


@lru_cache(maxsize=1 << 17)
def cell_width(text: str) -> int:
    """Terminal cells ``text`` takes, as such an agent counts its listing against the budget
    (cached: a catalog rendered at many budgets measures the same lines each time)."""
    if text.isascii():
        return len(text) if text.isprintable() else sum(1 for c in text if " " <= c <= "~")
    total = 0
    for c in text:
        if unicodedata.category(c) in _ZERO_WIDTH:
            continue
        total += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return total


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def cap_utf16(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` UTF-16 code units, the ellipsis counted within the limit."""
    if utf16_len(text) <= limit:
        return text
    units = text.encode("utf-16-le", "surrogatepass")[: 2 * max(limit - 1, 0)]
    return units.decode("utf-16-le", "surrogatepass") + ELLIPSIS


def _primary(base: str) -> tuple[int, int]:
    if base.isspace():
        return (0, ord(base))
    if base in _PUNCTUATION:
        return (1, _PUNCTUATION.index(base))
    if base.isdigit():
        return (2, unicodedata.digit(base, 0))
    if base.isalpha():
        return (3, ord(base.casefold()[0]))
    return (4, ord(base))


CollationKey = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]


def collation_key(text: str) -> CollationKey:
    """A sort key ordering names as a JavaScript locale comparison does (three levels)."""
    primary: list[tuple[int, int]] = []
    accents: list[int] = []
    cases: list[int] = []
    for c in unicodedata.normalize("NFD", text):
        if unicodedata.combining(c) and primary:
            accents[-1] += ord(c)
            continue
        primary.append(_primary(c))
        accents.append(0)
        cases.append(1 if c.isupper() else 0)
    return tuple(primary), tuple(accents), tuple(cases)
