"""Retrievers: rank a whole catalog for each request, so a selector sees only the top k.

A retrieve stage sits in front of any selector: it scores every listable skill of the
catalog against every request at once (a matrix of requests × skills, worked in row
blocks to bound memory) and keeps the ``k`` best per request. The same embedding model,
vector cache and BM25 code as the ``embedding`` and ``lexical`` selectors do the scoring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from skillbench._registry import Registry
from skillbench.selectors._embedder import Embedder
from skillbench.selectors._embedding import EMBEDDING_PARAMS, make_embedder
from skillbench.selectors._lexical import BM25
from skillbench.selectors._params import check_params
from skillbench.selectors._types import SelectorEnv

BLOCK = 256
"""Requests scored per matrix block: a block of 256 requests × 20,000 skills is ~40 MB."""

ScoreBlocks = Callable[[slice], np.ndarray]
"""Scores of the query rows in a slice against every document (higher is more relevant)."""


@runtime_checkable
class Retriever(Protocol):
    """Scores documents (skills' catalog text) against queries (request texts)."""

    name: str

    def scores(self, queries: Sequence[str], documents: Sequence[str]) -> ScoreBlocks:
        """A function giving the (rows × documents) score matrix of any block of query rows."""
        ...


RetrieverFactory = Callable[[Mapping[str, Any], SelectorEnv], Retriever]
"""Builds a retriever from its params (the ``retrieve`` keys other than ``method``/``k``)."""

RETRIEVERS: Registry[RetrieverFactory] = Registry("retrieve method")
"""Every ``retrieve.method`` a selector config may name."""


def top_k(
    retriever: Retriever, queries: Sequence[str], documents: Sequence[str], k: int
) -> np.ndarray:
    """Indices into ``documents`` of each query's ``k`` best, best first.

    Returns an int matrix of shape ``(len(queries), min(k, len(documents)))``. Ties keep
    document order (a stable sort), so the ranking is deterministic.
    """
    width = min(k, len(documents))
    out = np.zeros((len(queries), width), dtype=np.int64)
    if width == 0:
        return out
    block_scores = retriever.scores(queries, documents)
    for start in range(0, len(queries), BLOCK):
        rows = slice(start, start + BLOCK)
        out[rows] = np.argsort(-block_scores(rows), axis=1, kind="stable")[:, :width]
    return out


class EmbeddingRetriever:
    """Cosine between request and skill embeddings (the embedding selector's model and cache)."""

    name = "embedding"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def scores(self, queries: Sequence[str], documents: Sequence[str]) -> ScoreBlocks:
        unique = list(dict.fromkeys([*queries, *documents]))
        vectors = self.embedder.embed(unique)
        row = {t: i for i, t in enumerate(unique)}
        q_vecs = vectors[[row[t] for t in queries]]
        d_vecs = vectors[[row[t] for t in documents]]
        return lambda rows: q_vecs[rows] @ d_vecs.T


class BM25Retriever:
    """Okapi BM25 over the whole catalog (the lexical selector's index)."""

    name = "bm25"

    def scores(self, queries: Sequence[str], documents: Sequence[str]) -> ScoreBlocks:
        index = BM25(documents)
        return lambda rows: index.scores(queries[rows])


@RETRIEVERS.register("embedding")
def embedding_retriever(params: Mapping[str, Any], env: SelectorEnv) -> Retriever:
    """Params: ``model`` (default the packaged all-MiniLM-L6-v2), ``batch_size`` (64)."""
    spec = {k: EMBEDDING_PARAMS[k] for k in ("model", "batch_size")}
    return EmbeddingRetriever(make_embedder(check_params("retrieve embedding", params, spec), env))


@RETRIEVERS.register("bm25")
def bm25_retriever(params: Mapping[str, Any], env: SelectorEnv) -> Retriever:
    """No params."""
    check_params("retrieve bm25", params, {})
    return BM25Retriever()
