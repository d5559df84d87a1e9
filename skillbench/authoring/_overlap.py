"""``overlap``: which pairs of skills a selector is most likely to confuse, and why.

Two predictions from the descriptions alone, one measurement from a run:

- embedding cosine of the two entries (the packaged MiniLM, through the selectors' shared
  embedder and cache): what an embedding selector sees;
- symmetric BM25: each entry scored as a query against the other with the selectors' BM25
  over the whole catalog, normalised by its score against itself, then averaged, so a
  long description does not outscore a short one by length alone;
- measured confusion (``--run``): requests expecting one skill of the pair that chose the
  other, over every cell of the run, counting only decisions whose listing showed the
  expected skill (a skill the listing never offered cannot be confused by its description).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from skillbench.authoring._replay_link import ReplayedDecision
from skillbench.catalog import Skill
from skillbench.results import Run
from skillbench.selectors import bm25_weights, words
from skillbench.types import JsonObject

TERMS_SHOWN = 8
"""Shared and one-sided terms listed per pair, most distinctive first."""


class PairFlip(NamedTuple):
    """A request that expected one skill of a pair and chose the other."""

    request_id: str
    expected: str
    chosen: str
    cells: int
    text: str | None


@dataclass(frozen=True)
class PairOverlap:
    """One unordered pair of skills (``a`` < ``b`` by name) and how alike they look.

    Attributes:
        cosine: embedding cosine of the two entries (None when embeddings were skipped).
        bm25: symmetric, self-normalised BM25 in [0, 1].
        shared: content words both entries use, rarest in the catalog first.
        only_a / only_b: content words only one of the two uses, rarest first.
        confusions: decisions that expected one and chose the other (0 without a run).
        flips: those requests, most often confused first.
    """

    a: str
    b: str
    cosine: float | None
    bm25: float
    shared: tuple[str, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    confusions: int = 0
    flips: tuple[PairFlip, ...] = field(default=())

    @property
    def similarity(self) -> float:
        """The description-only prediction: the mean of cosine and BM25 (BM25 alone
        without embeddings)."""
        return self.bm25 if self.cosine is None else (self.cosine + self.bm25) / 2

    def to_json(self) -> JsonObject:
        return {
            "a": self.a,
            "b": self.b,
            "cosine": None if self.cosine is None else round(self.cosine, 4),
            "bm25": round(self.bm25, 4),
            "similarity": round(self.similarity, 4),
            "confusions": self.confusions,
            "shared_terms": list(self.shared),
            "only_a_terms": list(self.only_a),
            "only_b_terms": list(self.only_b),
            "flips": [f._asdict() for f in self.flips],
        }


def entry_document(skill: Skill) -> str:
    """What a listing says about ``skill``: name, description and when_to_use, in full."""
    return " ".join(p for p in (f"{skill.name}:", skill.description, skill.when_to_use) if p)


BLOCK = 256
"""Skills whose similarity rows are computed at once: memory is BLOCK × catalog, never the
catalog squared."""


class _PairScores:
    """Pair similarities of a catalog, a block of rows at a time.

    BM25 is symmetric and self-normalised: each document scored as a query against the other
    (the selectors' BM25 weights, kept sparse) divided by its score against itself, averaged
    over both directions; cosine is the embedding dot product.
    """

    def __init__(self, documents: Sequence[str], vectors: np.ndarray | None) -> None:
        _, weights = bm25_weights(documents)
        self.weights = weights
        self.queries = (weights != 0).astype(np.float64).tocsr()
        own = np.asarray(self.queries.multiply(weights).sum(axis=1)).ravel()
        own[own == 0] = 1.0
        self.own = own
        self.vectors = vectors

    def block(self, rows: slice) -> tuple[np.ndarray, np.ndarray | None]:
        """(BM25, cosine) of the skills in ``rows`` against every skill."""
        forward = np.asarray((self.queries[rows] @ self.weights.T).todense())
        backward = np.asarray((self.queries @ self.weights[rows].T).todense()).T
        bm25 = (forward / self.own[rows, None] + backward / self.own[None, :]) / 2
        cosine = None if self.vectors is None else self.vectors[rows] @ self.vectors.T
        return bm25, cosine


class _Candidate(NamedTuple):
    """A pair worth ranking: its confusions, similarity and catalog indices (i < j)."""

    confusions: int
    similarity: float
    i: int
    j: int
    bm25: float
    cosine: float | None


def _candidates(
    scores: _PairScores, n: int, top: int | None, confused: Mapping[tuple[int, int], int]
) -> dict[tuple[int, int], _Candidate]:
    """Each skill's ``top`` most similar partners (all with ``top`` None), plus every pair a
    run confused: a pair among the ``top`` best overall is among the ``top`` best of both its
    skills, so ranking these candidates ranks the catalog."""
    keep = n - 1 if top is None else min(top, n - 1)
    out: dict[tuple[int, int], _Candidate] = {}
    index = np.arange(n)
    confused_with: dict[int, list[int]] = {}
    for first, second in confused:
        confused_with.setdefault(first, []).append(second)
        confused_with.setdefault(second, []).append(first)
    for start in range(0, n, BLOCK):
        rows = slice(start, min(start + BLOCK, n))
        bm25, cosine = scores.block(rows)
        similarity = bm25 if cosine is None else (cosine + bm25) / 2
        for r, i in enumerate(range(rows.start, rows.stop)):
            row = np.round(similarity[r], 12)
            row[i] = -np.inf
            if keep < n - 1:
                # Ties at the cut and rounding noise are kept; the exact order decides below.
                cut = np.partition(row, n - keep)[n - keep] - 1e-9
                partners = index[row >= cut]
            else:
                partners = index[index != i]
            wanted = [int(j) for j in partners] + confused_with.get(i, [])
            for j in wanted:
                pair = (min(i, j), max(i, j))
                if pair in out:
                    continue
                b = float(bm25[r, j])
                c = None if cosine is None else float(cosine[r, j])
                sim = b if c is None else (c + b) / 2
                out[pair] = _Candidate(confused.get(pair, 0), sim, pair[0], pair[1], b, c)
    return out


def _ranked_terms(terms: set[str], df: Counter[str]) -> tuple[str, ...]:
    return tuple(sorted(terms, key=lambda w: (df[w], w))[:TERMS_SHOWN])


def _flips(
    decisions: Sequence[ReplayedDecision], names: set[str], texts: Mapping[str, str]
) -> dict[frozenset[str], list[PairFlip]]:
    counts: Counter[tuple[str, str, str]] = Counter()
    for d in decisions:
        if d.chosen is None or d.chosen not in names or not d.shown:
            continue
        for expected in d.expected:
            if expected in names and expected != d.chosen and d.chosen not in d.expected:
                counts[d.request_id, expected, d.chosen] += 1
    out: dict[frozenset[str], list[PairFlip]] = {}
    for (rid, expected, chosen), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        out.setdefault(frozenset((expected, chosen)), []).append(
            PairFlip(rid, expected, chosen, n, texts.get(rid))
        )
    return out


def overlap_pairs(
    skills: Sequence[Skill],
    *,
    embed: Any | None = None,
    decisions: Sequence[ReplayedDecision] = (),
    request_texts: Mapping[str, str] | None = None,
    top: int | None = None,
) -> list[PairOverlap]:
    """The pairs of ``skills``, most confusable first: every pair, or the ``top`` first.

    Args:
        skills: the catalog's skills (names unique).
        embed: ``texts -> unit vectors`` (an ``Embedder.embed``); None skips cosine.
        decisions: a run's decisions; pairs are then ranked by measured confusions first.
        request_texts: request id → text, to show flipped requests.
        top: how many pairs to return (None: all). Similarities are computed a block of
            skills at a time and only each skill's ``top`` best partners are kept, so a
            large catalog needs memory linear in its size.

    Order: confusions (high first), then similarity (high first), then names.
    """
    ordered = sorted(skills, key=lambda s: s.name)
    names = [s.name for s in ordered]
    if len(ordered) < 2:
        return []
    documents = [entry_document(s) for s in ordered]
    vectors = None
    if embed is not None:
        vectors = np.asarray(embed(documents), dtype=np.float64)
    flips = _flips(decisions, set(names), request_texts or {})
    at = {name: i for i, name in enumerate(names)}
    confused: dict[tuple[int, int], int] = {}
    for pair, found in flips.items():
        i, j = sorted(at[name] for name in pair)
        confused[i, j] = sum(f.cells for f in found)
    found_pairs = _candidates(_PairScores(documents, vectors), len(ordered), top, confused)
    ranked = sorted(
        found_pairs.values(),
        key=lambda c: (-c.confusions, -round(c.similarity, 12), names[c.i], names[c.j]),
    )
    if top is not None:
        ranked = ranked[:top]
    terms = [set(words(d)) for d in documents]
    df: Counter[str] = Counter(w for t in terms for w in t)
    return [
        PairOverlap(
            names[c.i],
            names[c.j],
            c.cosine,
            c.bm25,
            _ranked_terms(terms[c.i] & terms[c.j], df),
            _ranked_terms(terms[c.i] - terms[c.j], df),
            _ranked_terms(terms[c.j] - terms[c.i], df),
            c.confusions,
            tuple(flips.get(frozenset((names[c.i], names[c.j])), [])),
        )
        for c in ranked
    ]


def load_overlap(
    sources: Sequence[str],
    *,
    profile: str = "codebot",
    cwd: str | Path | None = None,
    run: Run | None = None,
    embeddings: bool = True,
    top: int | None = None,
) -> list[PairOverlap]:
    """``overlap_pairs`` over the model-invocable skills of ``sources`` (and the confusions
    of a finished ``run``)."""
    from skillbench.authoring._replay_link import run_decisions, run_request_texts
    from skillbench.cache import default_cache_root
    from skillbench.catalog import load_catalog
    from skillbench.selectors import DEFAULT_MODEL, Embedder

    catalog = load_catalog(sources, profile=profile, cwd=cwd)
    embed = Embedder.shared(DEFAULT_MODEL, default_cache_root()).embed if embeddings else None
    decisions = run_decisions(run) if run is not None else []
    texts = run_request_texts(run) if run is not None else {}
    return overlap_pairs(
        catalog.model_invocable, embed=embed, decisions=decisions, request_texts=texts, top=top
    )
