"""Retrieval metrics of cells whose selector has a retrieve stage, from the rows' ranks.

Standard IR definitions with one relevant set per request (its expected skills) and binary
relevance. They are over the completed positive decisions of a cell: a negative expects no
skill, so there is nothing to retrieve. The cutoff k is the number of skills the stage
passed on (the row's ``retrieved``): a skill ranked below it counts as not retrieved. An
expected skill the profile never lists (disabled, hidden) cannot be retrieved and counts as
a miss. Cells without a retrieve stage have none of these metrics (``optional``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from skillbench.metrics._intervals import bootstrap_ratio
from skillbench.metrics._metric import METRICS, Metric, Value, completed, positive, share

if TYPE_CHECKING:
    from skillbench.types import ResultRow


def _ranked_positive(row: ResultRow) -> bool:
    return positive(row) and row.retrieved_ranks is not None


def _scored(row: ResultRow) -> bool:
    """A row the rank metrics average over: a completed positive with retrieved ranks."""
    return completed(row) and _ranked_positive(row)


def _compared(row: ResultRow) -> bool:
    """A row ``tokens_saved`` sums over: completed, with both listings' token counts."""
    return completed(row) and row.full_listing_tokens is not None and row.listing_tokens is not None


def reciprocal_rank(row: ResultRow) -> float:
    """1 / rank of the first expected skill among the retrieved, 0 when none is there."""
    ranks = row.retrieved_ranks or []
    return 1.0 / min(ranks) if ranks else 0.0


def ndcg(row: ResultRow) -> float:
    """DCG / ideal DCG at the row's cutoff, gains ``1 / log2(rank + 1)``; the ideal puts
    ``min(|expected|, k)`` relevant skills at the top ranks."""
    ideal = min(len(set(row.expected)), row.retrieved or 0)
    if ideal == 0:
        return 0.0
    dcg = sum(1.0 / math.log2(r + 1) for r in row.retrieved_ranks or [])
    return dcg / sum(1.0 / math.log2(r + 1) for r in range(1, ideal + 1))


def _mean(score: Callable[[ResultRow], float]) -> Callable[[Sequence[ResultRow]], Value]:
    """The mean of ``score`` over completed ranked positives, with a bootstrap interval."""

    def compute(rows: Sequence[ResultRow]) -> Value:
        values = Counter(score(r) for r in rows if _scored(r))
        if not values:
            return None, None
        keys = sorted(values)
        counts = [values[k] for k in keys]
        low, high = bootstrap_ratio(keys, [1.0] * len(keys), counts)
        return sum(k * c for k, c in zip(keys, counts, strict=True)) / sum(counts), [low, high]

    return compute


def _tokens_saved(rows: Sequence[ResultRow]) -> Value:
    """1 − Σ retrieved listing tokens / Σ full listing tokens, with a bootstrap interval."""
    pairs = Counter(
        (r.full_listing_tokens or 0, r.listing_tokens or 0) for r in rows if _compared(r)
    )
    keys = sorted(pairs)
    counts = [pairs[k] for k in keys]
    full = sum(f * c for (f, _), c in zip(keys, counts, strict=True))
    if full == 0:
        return None, None
    saved = sum((f - s) * c for (f, s), c in zip(keys, counts, strict=True))
    low, high = bootstrap_ratio([f - s for f, s in keys], [f for f, _ in keys], counts)
    return saved / full, [low, high]


share(
    "hit_at_k",
    "positives with an expected skill among the retrieve stage's top k / positives",
    higher_is_better=True,
    applies=_ranked_positive,
    hit=lambda row: bool(row.retrieved_ranks),
    optional=True,
)
for metric in (
    Metric(
        "mrr",
        "mean over positives of 1 / rank of the first expected skill in the retrieve "
        "stage's top k (0 when none is there)",
        True,
        "bootstrap",
        _scored,
        None,
        _mean(reciprocal_rank),
        optional=True,
    ),
    Metric(
        "ndcg_at_k",
        "mean over positives of nDCG@k, binary relevance: Σ 1/log2(rank+1) over retrieved "
        "expected skills / the same for min(|expected|, k) skills at the top",
        True,
        "bootstrap",
        _scored,
        None,
        _mean(ndcg),
        optional=True,
    ),
    Metric(
        "tokens_saved",
        "listing tokens the retrieve stage saved (full listing − top-k listing) / tokens "
        "of the full listing the cell would show without it",
        True,
        "bootstrap",
        _compared,
        None,
        _tokens_saved,
        optional=True,
    ),
):
    METRICS.register(metric.name)(metric)
