"""What offline selectors read of a listing entry and how they split text into words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from skillbench.listing import ListedSkill
from skillbench.selectors._types import Query

STOPWORDS: frozenset[str] = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "can",
        "could",
        "do",
        "does",
        "for",
        "from",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "please",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "this",
        "to",
        "use",
        "used",
        "uses",
        "using",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)
"""Common English function words; dropping them keeps BM25 and name keywords on content."""

_WORD = re.compile(r"\w+")


def entry_text(entry: ListedSkill) -> str:
    """The entry as the model saw it: ``name: description when`` (just the name if name-only)."""
    if entry.status == "name_only":
        return entry.name
    parts = [f"{entry.name}:", entry.description, entry.when or ""]
    return " ".join(p.strip() for p in parts if p and p.strip())


def words(text: str) -> list[str]:
    """Lower-case word tokens without stopwords (underscores and hyphens split words)."""
    return [w for w in _WORD.findall(text.lower().replace("_", " ")) if w not in STOPWORDS]


def listing_groups(queries: Sequence[Query]) -> dict[tuple[str, ...], list[int]]:
    """Query indices grouped by the shown entries' texts, so each listing is scored once."""
    texts_of: dict[int, tuple[str, ...]] = {}
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, q in enumerate(queries):
        key = id(q.listing)
        if key not in texts_of:
            texts_of[key] = tuple(entry_text(e) for e in q.listing.shown)
        groups.setdefault(texts_of[key], []).append(i)
    return groups
