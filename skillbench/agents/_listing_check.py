"""The listing an agent really sent, entry by entry, against the one a cell rendered.

Both texts are in the agent's own format (the cell's profile renders it), so one parser per
agent reads both into ``(name, text)`` entries: the elements of its listing format, or a
parser of its own. What cannot agree by construction is left out: the agent's own built-in
skills (the render has them only with a snapshot) and paths into the agent's temporary
workspace. The first entry where the two part ways is the mismatch, in words.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from skillbench._registry import Registry
from skillbench.agentspec import AGENT_SPECS
from skillbench.listing import parse_elements
from skillbench.listing._raw import unescape_xml

SHOWN = 60
"""Characters of an entry's text quoted in a mismatch."""


class ListingEntry(NamedTuple):
    """One listed skill: its name as listed and the text after it (empty: name only)."""

    name: str
    text: str


OWN_PARSERS: Registry[Callable[[str], list[ListingEntry]]] = Registry("listing parser")
"""Agent name → how its listing reads, for an agent whose record has no listing format."""


def listing_entries(agent: str, listing: str) -> list[ListingEntry]:
    """The entries of ``listing`` as ``agent`` writes it: its own parser, else the elements
    of its listing format (text unescaped), then any skills its overflow line names."""
    spec = AGENT_SPECS.get(agent)
    fmt = spec.listing
    if fmt is None:
        return OWN_PARSERS.get(agent)(listing)
    plain = unescape_xml if fmt.escape != "none" else str
    entries = [ListingEntry(plain(e.name), plain(e.text)) for e in parse_elements(fmt, listing)]
    if fmt.overflow is not None:
        _, found, rest = listing.partition(fmt.overflow.names_prefix)
        names = rest.split("\n", 1)[0] if found else ""
        entries += [ListingEntry(n, "") for n in names.split(", ") if n]
    return entries


def listing_difference(
    agent: str, sent: str, rendered: str, builtins: Collection[str]
) -> str | None:
    """Where the listing ``agent`` sent first differs from the ``rendered`` one, in words
    (None when they list the same skills with the same text); ``builtins`` are the names
    of the agent's own skills, left out on both sides."""
    return first_difference(
        [e for e in listing_entries(agent, sent) if e.name not in builtins],
        [e for e in listing_entries(agent, rendered) if e.name not in builtins],
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
