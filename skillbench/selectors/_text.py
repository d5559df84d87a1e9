"""What offline selectors read of a listing entry and how they split text into words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from skillbench.catalog import Skill
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


def _joined(name: str, description: str, when: str | None) -> str:
    parts = [f"{name}:", description, when or ""]
    return " ".join(p.strip() for p in parts if p and p.strip())


def entry_text(entry: ListedSkill) -> str:
    """The entry as the model saw it: ``name: description when`` (just the name if name-only)."""
    if entry.status == "name_only":
        return entry.name
    return _joined(entry.name, entry.description, entry.when)


def skill_text(skill: Skill) -> str:
    """The catalog's full text of a skill, ``name: description when_to_use``: what a retrieve
    stage indexes, since it reads the catalog rather than a budgeted listing. Whitespace runs
    are collapsed as listings collapse them, so a fully shown entry has the same text."""
    when = " ".join(skill.when_to_use.split()) if skill.when_to_use else None
    return _joined(skill.name, " ".join(skill.description.split()), when)


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
