"""The ``lexical`` selector: Okapi BM25 of the request against the shown entries.

Documents are the shown entries' text (``name: description when``); the corpus is the listing
itself, so IDF reflects which words distinguish skills within what the model saw. Scores are
raw BM25 (not normalised): a score of 0 means no content word in common, and each matched
distinctive word adds roughly 1–3. Query words count once each.

The index of a listing is kept in a small LRU keyed by the shown texts: a replay shows the
same few listings over and over (one per fixed cell, a handful per usage cell), so each is
indexed once instead of once per batch.
"""

from __future__ import annotations

import math
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from skillbench.selectors._params import check_params, threshold_param
from skillbench.selectors._registry import SELECTORS
from skillbench.selectors._text import listing_groups, words
from skillbench.selectors._threshold import EntryScores, TopOneSelector, with_threshold
from skillbench.selectors._types import Query, Selector, SelectorEnv

K1 = 1.5
B = 0.75
DEFAULT_LEXICAL_THRESHOLD = 1.0
"""Raw BM25 under which the lexical selector abstains: about one distinctive shared word."""
INDEX_CACHE_SIZE = 32
"""Listings whose index a lexical selector keeps; an index of 200 shown skills is ~2 MB."""


@lru_cache(maxsize=1 << 17)
def term_counts(text: str) -> Mapping[str, int]:
    """Occurrences of each word of ``text`` in first-occurrence order, cached: a replay
    indexes the same entry texts in listing after listing. Callers must not modify it."""
    return Counter(words(text))


class BM25:
    """Okapi BM25 over a small fixed corpus, vectorised as a (documents × vocabulary) matrix.

    IDF is the non-negative Lucene form ``ln(1 + (N - n + 0.5) / (n + 0.5))``.
    """

    def __init__(self, documents: Sequence[str], k1: float = K1, b: float = B) -> None:
        self.vocab, sparse = bm25_weights(documents, k1, b)
        self.weights = sparse.toarray()

    def scores(self, queries: Sequence[str]) -> np.ndarray:
        """A (queries × documents) matrix of BM25 scores.

        Each query's columns are added one at a time, in vocabulary order: element-wise
        additions are rounded alike on every CPU, so a query scores the same to the last bit
        whatever batch it comes in and whichever SIMD width numpy dispatches to (a matrix
        product or a ``sum`` reduction promises neither).
        """
        out = np.zeros((len(queries), self.weights.shape[0]), dtype=np.float64)
        for i, q in enumerate(queries):
            for col in sorted({self.vocab[w] for w in term_counts(q) if w in self.vocab}):
                out[i] += self.weights[:, col]
        return out


def bm25_weights(
    documents: Sequence[str], k1: float = K1, b: float = B
) -> tuple[dict[str, int], Any]:
    """The vocabulary (word → column) and the BM25 weight of each document's words as a
    sparse (documents × vocabulary) CSR matrix: what a catalog too large for a dense matrix
    is scored with. Each weight is computed exactly as the dense one would be."""
    from scipy import sparse

    counts = [term_counts(d) for d in documents]
    vocab: dict[str, int] = {}
    for doc in counts:
        for w in doc:
            vocab.setdefault(w, len(vocab))
    rows = np.array([i for i, doc in enumerate(counts) for _ in doc], dtype=np.intp)
    cols = np.array([vocab[w] for doc in counts for w in doc], dtype=np.intp)
    tf = np.array([n for doc in counts for n in doc.values()], dtype=np.float64)
    lengths = np.bincount(rows, weights=tf, minlength=len(counts))
    total = math.fsum(lengths)  # exact, unlike a SIMD-width-dependent mean
    avg = total / lengths.size if lengths.size and total > 0 else 1.0
    df = np.bincount(cols, minlength=len(vocab))
    # The C library's log1p, not numpy's: numpy dispatches some CPUs to its own vectorised
    # logarithm, which can differ in the last bit, and a score must not depend on the CPU.
    idf = np.array([math.log1p(x) for x in (len(counts) - df + 0.5) / (df + 0.5)])
    weights = idf[cols] * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[rows] / avg))
    shape = (len(counts), len(vocab))
    return vocab, sparse.csr_matrix((weights, (rows, cols)), shape=shape)


class LexicalSelector(TopOneSelector):
    """Top-1 BM25 over shown entries; abstains when the best score is under ``threshold``."""

    name = "lexical"

    def __init__(
        self, threshold: float | None = None, *, cache_size: int = INDEX_CACHE_SIZE
    ) -> None:
        self.threshold = threshold
        self.cache_size = cache_size
        self._indexes: OrderedDict[tuple[str, ...], BM25] = OrderedDict()

    def index(self, texts: tuple[str, ...]) -> BM25:
        """The BM25 index of a listing's shown texts, built on first use (LRU-bounded)."""
        found = self._indexes.get(texts)
        if found is not None:
            self._indexes.move_to_end(texts)
            return found
        found = self._indexes[texts] = BM25(texts)
        if len(self._indexes) > self.cache_size:
            self._indexes.popitem(last=False)
        return found

    def score(self, queries: Sequence[Query]) -> list[EntryScores]:
        out: dict[int, EntryScores] = {}
        for texts, members in listing_groups(queries).items():
            names = tuple(e.name for e in queries[members[0]].listing.shown)
            matrix = self.index(texts).scores([queries[i].request.text for i in members])
            for i, row in zip(members, matrix, strict=True):
                out[i] = EntryScores(names, row)
        return [out[i] for i in range(len(queries))]


@SELECTORS.register("lexical")
def lexical_selector(params: Mapping[str, Any], env: SelectorEnv) -> Selector:
    """Params: ``threshold`` (raw BM25, default 1.0, or ``auto``)."""
    p = check_params("lexical", params, {"threshold": (threshold_param, DEFAULT_LEXICAL_THRESHOLD)})
    return with_threshold(LexicalSelector(), p["threshold"])
