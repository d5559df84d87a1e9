"""Retrievers: top k of a whole catalog per request, by BM25 or by real MiniLM embeddings."""

from __future__ import annotations

import numpy as np
import pytest
from selector_helpers import SKILLS

from skillbench._errors import SkillbenchError
from skillbench.selectors import RETRIEVERS, SelectorEnv, skill_text, top_k

DOCS = [skill_text(s) for s in SKILLS.values()]  # pdf-merge, git-commit, weather, translate


def test_bm25_ranks_matches_first_and_breaks_ties_by_catalog_order(env: SelectorEnv) -> None:
    bm25 = RETRIEVERS.get("bm25")({}, env)
    queries = ["merge my pdf files", "weather forecast", "nothing in common here"]
    top = top_k(bm25, queries, DOCS, 2)
    assert top.shape == (3, 2)
    # Only pdf-merge (0) shares words with the first query; the rest tie at 0, first by order.
    assert top.tolist() == [[0, 1], [2, 0], [0, 1]]


def test_k_beyond_the_catalog_returns_every_skill_once(env: SelectorEnv) -> None:
    top = top_k(RETRIEVERS.get("bm25")({}, env), ["commit"], DOCS, 10)
    assert top.shape == (1, 4) and sorted(top[0].tolist()) == [0, 1, 2, 3]
    assert top[0, 0] == 1


def test_embedding_top_k_holds_the_k_nearest(env: SelectorEnv) -> None:
    retriever = RETRIEVERS.get("embedding")({}, env)
    queries = [
        "combine these two PDF documents into one file",
        "what will the weather be in Lyon tomorrow",
        "put this paragraph into French",
    ]
    top = top_k(retriever, queries, DOCS, 2)
    assert top[:, 0].tolist() == [0, 2, 3]
    vectors = retriever.embedder.embed([*queries, *DOCS])  # type: ignore[attr-defined]
    cosines = vectors[:3] @ vectors[3:].T
    for q in range(3):
        kept = cosines[q, top[q]]
        rest = np.delete(cosines[q], top[q])
        assert kept[0] >= kept[1] >= rest.max()


def test_blocks_give_the_same_ranking_as_one_pass(
    env: SelectorEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillbench.selectors import _retrievers

    queries = [f"merge pdf number {i}" if i % 2 else f"commit change {i}" for i in range(7)]
    bm25 = RETRIEVERS.get("bm25")({}, env)
    whole = top_k(bm25, queries, DOCS, 3)
    monkeypatch.setattr(_retrievers, "BLOCK", 2)
    assert np.array_equal(top_k(bm25, queries, DOCS, 3), whole)


def test_params_are_checked_with_a_suggestion(env: SelectorEnv) -> None:
    with pytest.raises(SkillbenchError, match="unknown parameter 'model'"):
        RETRIEVERS.get("bm25")({"model": "x"}, env)
    with pytest.raises(SkillbenchError, match="did you mean 'model'"):
        RETRIEVERS.get("embedding")({"modle": "x"}, env)
    with pytest.raises(SkillbenchError, match="unknown retrieve method 'bm52'"):
        RETRIEVERS.get("bm52")
