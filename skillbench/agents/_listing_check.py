"""The listing an agent really sent, entry by entry, against the one a cell rendered.

Both texts are in the agent's own format (the cell's profile renders it), so one parser per
agent reads both into ``(name, text)`` entries. What cannot agree by construction is left
out: the agent's own built-in skills (the render has them only with a snapshot) and Codex's
``(file: …)`` paths (the agent's point into its temporary workspace). The first entry where
the two part ways is the mismatch, in words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from skillbench.agents._claude_code import parse_entries
from skillbench.agents._codex import CLOSE

SHOWN = 60
"""Characters of an entry's text quoted in a mismatch."""
_CODEX_ENTRY = re.compile(r"^- (?P<name>[^:\n]+?)(?:: (?P<text>.*?))?(?: \(file: [^)\n]*\))?$")


class ListingEntry(NamedTuple):
    """One listed skill: its name as listed and the text after it (empty: name only)."""

    name: str
    text: str


def _claude_code(listing: str) -> list[ListingEntry]:
    return [ListingEntry(name, text) for name, text in parse_entries(listing)]


def _codex(listing: str) -> list[ListingEntry]:
    """The ``### Available skills`` lines, paths left out."""
    _, _, section = listing.partition("### Available skills\n")
    entries = []
    for line in section.removesuffix(CLOSE).splitlines():
        if line.startswith("#"):
            break
        found = _CODEX_ENTRY.match(line)
        if found:
            entries.append(ListingEntry(found["name"], found["text"] or ""))
    return entries


LISTING_PARSERS: dict[str, Callable[[str], list[ListingEntry]]] = {
    "claude-code": _claude_code,
    "codex": _codex,
}
"""Agents whose listings a live run compares, and how each listing reads."""


def listing_difference(
    agent: str, sent: str, rendered: str, builtins: Collection[str]
) -> str | None:
    """Where the listing ``agent`` sent first differs from the ``rendered`` one, in words
    (None when they list the same skills with the same text); ``builtins`` are the names
    of the agent's own skills, left out on both sides."""
    parse = LISTING_PARSERS[agent]
    return first_difference(
        [e for e in parse(sent) if e.name not in builtins],
        [e for e in parse(rendered) if e.name not in builtins],
    )


def first_difference(sent: Sequence[ListingEntry], rendered: Sequence[ListingEntry]) -> str | None:
    """The first entry at which ``sent`` and ``rendered`` differ, in words."""
    for i, (a, b) in enumerate(zip(sent, rendered, strict=False), 1):
        if a.name != b.name:
            return f"entry {i}: the agent lists {a.name!r}, the render {b.name!r}"
        if a.text != b.text:
            return (
                f"entry {i} ({a.name}): the agent shows {_quote(a.text)}, "
                f"the render {_quote(b.text)}"
            )
    if len(sent) > len(rendered):
        extra = ", ".join(e.name for e in sent[len(rendered) :])
        return f"the agent lists {len(sent) - len(rendered)} more: {extra}"
    if len(rendered) > len(sent):
        missing = ", ".join(e.name for e in rendered[len(sent) :])
        return f"the agent does not list {missing}"
    return None


def _quote(text: str) -> str:
    if not text:
        return "the name only"
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "…")
