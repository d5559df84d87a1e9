"""Retrieval metrics (Hit@k, MRR, nDCG@k, tokens saved) on a hand-computed cell."""

from __future__ import annotations

import math

import pytest
from support.rows import cell_json, result_row

from skillbench.metrics import find_metric, wilson


def row(expected, ranks, retrieved=5, tokens=250, full=1000, outcome="missed", **kw):
    return {
        "expected": expected,
        "chosen": None,
        "outcome": outcome,
        "visible": bool(ranks) if expected else None,
        "listing_chars": 1000,
        "listing_tokens": tokens,
        "retrieved": retrieved,
        "retrieved_ranks": ranks,
        "full_listing_tokens": full,
        **kw,
    }


ROWS = [
    row(["a"], [1], tokens=200),
    row(["b"], [3], tokens=300),
    row(["c"], [], tokens=250),
    row(["d", "e"], [2, 4], tokens=250),
    row(["f", "g", "h"], [1], retrieved=2, tokens=100),  # k=2: the ideal holds 2 of the 3
    row([], [], tokens=150, outcome="correct_abstain"),  # a negative: nothing to retrieve
    row(["a"], [1], tokens=900, outcome="error"),  # no answer: outside every rate
]


def test_hit_mrr_ndcg_and_tokens_saved_by_hand() -> None:
    m = cell_json(ROWS)
    # Five completed positives; a, b, d/e and f/g/h have an expected skill in their top k.
    assert m["hit_at_k"] == pytest.approx(4 / 5)
    assert m["hit_at_k_ci"] == pytest.approx(list(wilson(4, 5)))
    # Reciprocal ranks of the first expected skill: 1, 1/3, 0, 1/2, 1.
    assert m["mrr"] == pytest.approx((1 + 1 / 3 + 0 + 1 / 2 + 1) / 5)
    # nDCG = DCG / IDCG with gains 1/log2(rank + 1); IDCG over min(|expected|, k) top ranks.
    ndcg = [
        1.0,
        (1 / math.log2(4)) / 1.0,
        0.0,
        (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3)),
        1.0 / (1 + 1 / math.log2(3)),
    ]
    assert ndcg[3] == pytest.approx(0.650921, abs=1e-6)
    assert m["ndcg_at_k"] == pytest.approx(sum(ndcg) / 5)
    # Tokens over the six completed decisions, the negative included: 1250 of 6000 shown.
    assert m["tokens_saved"] == pytest.approx(1 - 1250 / 6000)
    assert m["mean_full_listing_tokens"] == pytest.approx(1000.0)
    for name in ("mrr", "ndcg_at_k", "tokens_saved"):
        low, high = m[f"{name}_ci"]
        assert low <= m[name] <= high


def test_a_perfect_retriever_scores_one_and_a_blind_one_zero() -> None:
    perfect = cell_json([row(["a"], [1]), row(["b", "c"], [1, 2])])
    assert (perfect["hit_at_k"], perfect["mrr"], perfect["ndcg_at_k"]) == (1.0, 1.0, 1.0)
    blind = cell_json([row(["a"], []), row(["b", "c"], [])])
    assert (blind["hit_at_k"], blind["mrr"], blind["ndcg_at_k"]) == (0.0, 0.0, 0.0)


def test_cells_without_a_retrieve_stage_have_no_retrieval_metrics() -> None:
    plain = [
        {k: v for k, v in r.items() if k not in ("retrieved", "retrieved_ranks")}
        | {"full_listing_tokens": None}
        for r in ROWS
    ]
    written = cell_json(plain)
    assert "hit_at_k" not in written and "ndcg_at_k_ci" not in written
    assert "tokens_saved" not in written and "mrr" not in written
    assert "mean_full_listing_tokens" not in written and "accuracy" in written


def test_each_retrieval_metric_says_how_many_decisions_it_is_over() -> None:
    # Five completed positives carry ranks; the negative and the errored row are outside the
    # rank metrics. Tokens saved sums over the six completed rows with both token counts.
    rows = [result_row(**r) for r in ROWS]
    assert {name: find_metric(name).size(rows) for name in ("hit_at_k", "mrr", "ndcg_at_k")} == {
        "hit_at_k": 5,
        "mrr": 5,
        "ndcg_at_k": 5,
    }
    assert find_metric("tokens_saved").size(rows) == 6
    assert find_metric("f1").size(rows) is None
