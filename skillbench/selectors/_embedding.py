"""The ``embedding`` selector: cosine similarity between the request and each shown entry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from skillbench.selectors._embedder import DEFAULT_MODEL, Embedder
from skillbench.selectors._params import (
    check_params,
    positive_int_param,
    str_param,
    threshold_param,
)
from skillbench.selectors._registry import SELECTORS
from skillbench.selectors._text import listing_groups
from skillbench.selectors._threshold import EntryScores, TopOneSelector, with_threshold
from skillbench.selectors._types import Query, Selector, SelectorEnv

DEFAULT_EMBEDDING_THRESHOLD = 0.35
"""Cosine under which the embedding selector abstains; MiniLM puts unrelated pairs near 0–0.2."""


def similarities(embedder: Embedder, queries: Sequence[Query]) -> list[EntryScores]:
    """Cosines for a batch: all missing texts encoded in one call, entries stacked per listing.

    Each query is scored on its own as ``E @ q``: a matrix product over the batch would sum
    in an order that depends on the batch size, and a query must score the same to the last
    bit whatever batch, resume or executor it comes in.
    """
    groups = listing_groups(queries)
    texts = [q.request.text for q in queries] + [t for g in groups for t in g]
    unique = list(dict.fromkeys(texts))
    vectors = embedder.embed(unique).astype(np.float64)
    row = {t: i for i, t in enumerate(unique)}
    out: dict[int, EntryScores] = {}
    for entries, members in groups.items():
        names = tuple(e.name for e in queries[members[0]].listing.shown)
        e_vecs = vectors[[row[t] for t in entries]].reshape(len(entries), vectors.shape[1])
        for i in members:
            out[i] = EntryScores(names, e_vecs @ vectors[row[queries[i].request.text]])
    return [out[i] for i in range(len(queries))]


class EmbeddingSelector(TopOneSelector):
    """Top-1 cosine over shown entries; abstains when the best cosine is under ``threshold``."""

    name = "embedding"

    def __init__(self, embedder: Embedder, threshold: float | None = None) -> None:
        self.embedder = embedder
        self.threshold = threshold

    def score(self, queries: Sequence[Query]) -> list[EntryScores]:
        return similarities(self.embedder, queries)

    def prepare(self, texts: Sequence[str]) -> None:
        self.embedder.embed(list(dict.fromkeys(texts)))


EMBEDDING_PARAMS = {
    "model": (str_param, DEFAULT_MODEL),
    "threshold": (threshold_param, DEFAULT_EMBEDDING_THRESHOLD),
    "batch_size": (positive_int_param, 64),
}


def make_embedder(params: Mapping[str, Any], env: SelectorEnv) -> Embedder:
    """The shared embedder for checked ``params`` (model, batch_size) and ``env.cache_dir``."""
    embedder = Embedder.shared(params["model"], env.cache_dir, base_dir=env.base_dir)
    embedder.batch_size = params["batch_size"]
    return embedder


@SELECTORS.register("embedding")
def embedding_selector(params: Mapping[str, Any], env: SelectorEnv) -> Selector:
    """Params: ``model`` (default packaged all-MiniLM-L6-v2; a path or hub name),
    ``threshold`` (cosine, default 0.35, or ``auto``), ``batch_size`` (64)."""
    p = check_params("embedding", params, EMBEDDING_PARAMS)
    return with_threshold(EmbeddingSelector(make_embedder(p, env)), p["threshold"])
