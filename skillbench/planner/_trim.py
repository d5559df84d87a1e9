"""A trim plan: the description edits that make every description fit at a budget, losing
as little of what tells skills apart as possible.

Room is shared by water-filling: every description longer than a length L is shortened to
at most L (and to below a per-entry cap that would cut it), and L is the largest length at
which the trimmed listing fits, so short descriptions are never touched. A description is
shortened by value: sentences after the first go first, least distinctive first; then words,
least distinctive first. A word is worth its rarity in the catalog (inverse document
frequency), halved when one of the skill's nearest neighbours (``overlap``) uses it too or
it repeats the skill's name (the listing shows the name anyway), and nothing for a stopword.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from skillbench.catalog import Skill
from skillbench.planner._setup import Setup
from skillbench.selectors import words

NEIGHBOURS = 3
"""Nearest neighbours per skill whose words count as shared."""
MIN_CHARS = 24
"""Shortest description a trim leaves: below this a description says nothing."""
_SENTENCE = re.compile(r"(?<=[.!?;])\s+")
_TRAILING = re.compile(r"[\s,;:(\-–—]+$|\s+(and|or|with|for|to|of|the|a|an|in|on)$", re.I)


class Words(NamedTuple):
    """What a word is worth to one skill: catalog document frequencies, the catalog's size,
    the words of the skill's nearest neighbours and of its name."""

    df: Mapping[str, int]
    n: int
    shared: frozenset[str]
    name: frozenset[str]

    def value(self, word: str) -> float:
        rare = math.log((self.n + 1) / (self.df.get(word, 0) + 1)) + 1.0
        return rare / 2 if word in self.shared or word in self.name else rare


def word_values(skills: Sequence[Skill]) -> dict[str, Words]:
    """Each skill's word values, its neighbours found by the catalog's BM25 overlap."""
    from skillbench.authoring import overlap_pairs

    df: Counter[str] = Counter()
    for s in skills:
        df.update(set(words(s.description)))
    near: dict[str, list[str]] = {s.name: [] for s in skills}
    for pair in overlap_pairs(skills, top=NEIGHBOURS * len(skills)):
        for a, b in ((pair.a, pair.b), (pair.b, pair.a)):
            if len(near[a]) < NEIGHBOURS:
                near[a].append(b)
    text = {s.name: s.description for s in skills}
    return {
        s.name: Words(
            df,
            len(skills),
            frozenset(w for other in near[s.name] for w in words(text[other])),
            frozenset(words(s.name)),
        )
        for s in skills
    }


def _worth(text: str, value: Callable[[str], float]) -> float:
    return sum(value(w) for w in set(words(text)))


def _tidy(text: str) -> str:
    while True:
        cut = _TRAILING.sub("", text)
        if cut == text:
            return text
        text = cut


def shorten(text: str, limit: int, worth: Words) -> str:
    """``text`` in at most ``limit`` characters, keeping its most distinctive parts in
    their order: whole sentences first, then words."""
    if len(text) <= limit:
        return text
    sentences = [s for s in _SENTENCE.split(text) if s]
    while len(sentences) > 1 and len(" ".join(sentences)) > limit:
        rest = range(1, len(sentences))
        worst = min(rest, key=lambda i: (_worth(sentences[i], worth.value) / len(sentences[i]), -i))
        del sentences[worst]
    text = " ".join(sentences)
    tokens = text.split(" ")
    while len(tokens) > 1 and len(" ".join(tokens)) > limit:
        worst = min(
            range(len(tokens)),
            key=lambda i: (_worth(tokens[i], worth.value), -len(tokens[i]), -i),
        )
        del tokens[worst]
    text = _tidy(" ".join(tokens))
    return text if len(text) <= limit else _tidy(text[:limit].rsplit(" ", 1)[0])


class TrimResult(NamedTuple):
    """The edits (name → new description), the length they were shortened to, and whether
    the trimmed listing fits at the target."""

    descriptions: dict[str, str]
    limit: int
    fits: bool


def fits_at(setup: Setup, budget: int) -> bool:
    """Whether ``setup`` lists every description in full at ``budget``."""
    return setup.render(budget).text == setup.full.text


def _caps(setup: Setup) -> dict[str, int]:
    """Characters a per-entry cap leaves each description it cuts (a whole entry must stay
    under the cap)."""
    return {
        e.name: max(len(e.description) - 1, MIN_CHARS)
        for e in setup.full.entries
        if e.status == "truncated"
    }


def trim(setup: Setup, target: int) -> TrimResult:
    """The largest common length L at which the trimmed catalog fits at ``target``."""
    skills = {s.name: s for s in setup.catalog.skills}
    caps = _caps(setup)
    values = word_values(list(skills.values()))
    longest = max((len(s.description) for s in skills.values()), default=0)
    memo: dict[tuple[str, int], str] = {}

    def edits(limit: int) -> dict[str, str]:
        out = {}
        for name, s in skills.items():
            room = min(limit, caps.get(name, limit))
            if len(s.description) > room:
                key = (name, room)
                if key not in memo:
                    memo[key] = shorten(s.description, room, values[name])
                out[name] = memo[key]
        return out

    if not caps and fits_at(setup, target):
        return TrimResult({}, longest, True)
    low, high = MIN_CHARS, longest
    if not fits_at(setup.trimmed(edits(low)), target):
        return TrimResult(edits(low), low, False)
    while low < high:
        mid = (low + high + 1) // 2
        if fits_at(setup.trimmed(edits(mid)), target):
            low = mid
        else:
            high = mid - 1
    return TrimResult(edits(low), low, True)
