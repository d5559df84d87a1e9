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

from skillbench.authoring._replay_link import Decision
from skillbench.catalog import Skill
from skillbench.selectors import BM25, words

TERMS_SHOWN = 8
"""Shared and one-sided terms listed per pair, most distinctive first."""


class Flip(NamedTuple):
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
    flips: tuple[Flip, ...] = field(default=())

    @property
    def similarity(self) -> float:
        """The description-only prediction: the mean of cosine and BM25 (BM25 alone
        without embeddings)."""
        return self.bm25 if self.cosine is None else (self.cosine + self.bm25) / 2

    def to_json(self) -> dict[str, Any]:
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


def symmetric_bm25(documents: Sequence[str]) -> np.ndarray:
    """``(n, n)`` matrix: each document scored as a query against every other, divided by
    its score against itself, averaged with the transpose (diagonal 1 where defined)."""
    raw = BM25(documents).scores(documents)
    self_scores = np.diag(raw).copy()
    self_scores[self_scores == 0] = 1.0
    normalised = raw / self_scores[:, None]
    return (normalised + normalised.T) / 2


def _ranked_terms(terms: set[str], df: Counter[str]) -> tuple[str, ...]:
    return tuple(sorted(terms, key=lambda w: (df[w], w))[:TERMS_SHOWN])


def _flips(
    decisions: Sequence[Decision], names: set[str], texts: Mapping[str, str]
) -> dict[frozenset[str], list[Flip]]:
    counts: Counter[tuple[str, str, str]] = Counter()
    for d in decisions:
        if d.chosen is None or d.chosen not in names or not d.shown:
            continue
        for expected in d.expected:
            if expected in names and expected != d.chosen and d.chosen not in d.expected:
                counts[d.request_id, expected, d.chosen] += 1
    out: dict[frozenset[str], list[Flip]] = {}
    for (rid, expected, chosen), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        out.setdefault(frozenset((expected, chosen)), []).append(
            Flip(rid, expected, chosen, n, texts.get(rid))
        )
    return out


def overlap_pairs(
    skills: Sequence[Skill],
    *,
    embed: Any | None = None,
    decisions: Sequence[Decision] = (),
    request_texts: Mapping[str, str] | None = None,
) -> list[PairOverlap]:
    """Every pair of ``skills``, most confusable first.

    Args:
        skills: the catalog's skills (names unique).
        embed: ``texts -> unit vectors`` (an ``Embedder.embed``); None skips cosine.
        decisions: a run's decisions; pairs are then ranked by measured confusions first.
        request_texts: request id → text, to show flipped requests.

    Order: confusions (high first), then similarity (high first), then names.
    """
    ordered = sorted(skills, key=lambda s: s.name)
    names = [s.name for s in ordered]
    documents = [entry_document(s) for s in ordered]
    bm25 = symmetric_bm25(documents) if documents else np.zeros((0, 0))
    cosine = None
    if embed is not None and documents:
        vectors = np.asarray(embed(documents), dtype=np.float64)
        cosine = vectors @ vectors.T
    terms = [set(words(d)) for d in documents]
    df: Counter[str] = Counter(w for t in terms for w in t)
    flips = _flips(decisions, set(names), request_texts or {})
    pairs = []
    for i in range(len(ordered)):
        for j in range(i + 1, len(ordered)):
            found = flips.get(frozenset((names[i], names[j])), [])
            pairs.append(
                PairOverlap(
                    names[i],
                    names[j],
                    None if cosine is None else float(cosine[i, j]),
                    float(bm25[i, j]),
                    _ranked_terms(terms[i] & terms[j], df),
                    _ranked_terms(terms[i] - terms[j], df),
                    _ranked_terms(terms[j] - terms[i], df),
                    sum(f.cells for f in found),
                    tuple(found),
                )
            )
    pairs.sort(key=lambda p: (-p.confusions, -round(p.similarity, 12), p.a, p.b))
    return pairs


def load_overlap(
    sources: Sequence[str],
    *,
    profile: str = "codebot",
    cwd: str | Path | None = None,
    run_dir: str | Path | None = None,
    embeddings: bool = True,
) -> list[PairOverlap]:
    """``overlap_pairs`` over the model-invocable skills of ``sources`` (and a run)."""
    from skillbench.authoring._replay_link import run_decisions, run_request_texts
    from skillbench.cache import default_cache_root
    from skillbench.catalog import load_catalog
    from skillbench.selectors import DEFAULT_MODEL, Embedder

    catalog = load_catalog(sources, profile=profile, cwd=cwd)
    embed = Embedder.shared(DEFAULT_MODEL, default_cache_root()).embed if embeddings else None
    decisions = run_decisions(run_dir) if run_dir is not None else []
    texts = run_request_texts(run_dir) if run_dir is not None else {}
    return overlap_pairs(
        catalog.model_invocable, embed=embed, decisions=decisions, request_texts=texts
    )
