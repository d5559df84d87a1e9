"""The entries of a listing as an agent recorded it in its session log: what every recorded
listing shares (each log format reads its own entries, ``RecordedListing.entries``)."""

from __future__ import annotations

import re

from skillbench.transcripts._types import ListedEntry

CUT_MARKS = ("…", "...")
"""What a description cut at an agent's per-entry cap ends with."""


def entry_names(entry: ListedEntry) -> tuple[str, ...]:
    """The names an entry answers to: its head, and for ``folder (name)`` both parts."""
    found = re.fullmatch(r"(?P<folder>[^\s(]+) \((?P<name>[^)]+)\)", entry.head)
    return (found.group("folder"), found.group("name")) if found else (entry.head,)
