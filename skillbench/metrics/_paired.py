"""Paired statistics: two systems judged on the same requests.

Pairing removes the between-request variance that swamps unpaired comparisons: a rewrite that
fixes 6 requests and breaks none is a clear improvement even when both accuracies have wide,
overlapping Wilson intervals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from skillbench.metrics._intervals import Interval


class McNemar(NamedTuple):
    """Exact McNemar test on discordant pairs.

    Attributes:
        worse: pairs A got right and B got wrong.
        better: pairs A got wrong and B got right.
        p_value: two-sided exact binomial p-value (1.0 when there are no discordant pairs).
    """

    worse: int
    better: int
    p_value: float


def binomial_two_sided(k: int, n: int) -> float:
    """Two-sided exact p-value of ``k`` successes in ``n`` fair coin flips.

    Doubles the smaller tail (exact for p = 0.5, where the distribution is symmetric); summed in
    integers so large ``n`` neither underflows nor loses precision.
    """
    if n <= 0:
        return 1.0
    m = min(k, n - k)
    term = total = 1
    for i in range(1, m + 1):
        term = term * (n - i + 1) // i
        total += term
    return min(1.0, 2 * total / 2**n)


def mcnemar_exact(worse: int, better: int) -> McNemar:
    """Exact McNemar test: under "no difference" each discordant pair flips either way at 0.5."""
    if worse < 0 or better < 0:
        raise ValueError("discordant counts must be non-negative")
    return McNemar(worse, better, binomial_two_sided(worse, worse + better))


def sign_test(a: Sequence[float], b: Sequence[float]) -> McNemar:
    """Exact sign test on per-request scores; McNemar itself when each score is 0 or 1.

    With repeats, each request's score is its mean correctness over repeats, so a request counts
    once however many times it was replayed (repeats are not independent evidence).
    """
    da, db = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if da.shape != db.shape:
        raise ValueError("paired samples must have the same length")
    diff = db - da
    return mcnemar_exact(int(np.sum(diff < 0)), int(np.sum(diff > 0)))


class Bootstrap(NamedTuple):
    """A paired bootstrap estimate of ``mean(B) - mean(A)``."""

    diff: float
    ci: Interval
    resamples: int


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
    chunk: int = 1_000,
) -> Bootstrap:
    """Percentile interval for the difference in means, resampling whole requests.

    Args:
        a: per-request score of system A (its mean correctness over repeats, so repeats
            stay with their request when requests are resampled).
        b: the same for B, in the same request order.
        resamples: bootstrap resamples (vectorised in chunks to bound memory).
        seed: seed of the numpy generator; the same inputs and seed give the same interval.
        level: coverage of the interval.
    """
    da, db = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if da.shape != db.shape:
        raise ValueError("paired samples must have the same length")
    n = da.size
    if n == 0:
        return Bootstrap(math.nan, Interval(math.nan, math.nan), 0)
    d = db - da
    diff = float(d.mean())
    rng = np.random.default_rng(seed)
    stats = np.empty(resamples)
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        idx = rng.integers(0, n, size=(size, n))
        stats[start : start + size] = d[idx].mean(axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(stats, [tail, 100 - tail])
    return Bootstrap(diff, Interval(float(low), float(high)), resamples)


def newcombe_diff(p_a: float, ci_a: Interval, p_b: float, ci_b: Interval) -> Interval:
    """Newcombe's hybrid score interval for ``p_b - p_a`` from two independent Wilson intervals.

    Used when only summaries are at hand (no per-request pairing); valid where each interval is.
    """
    d = p_b - p_a
    low = d - math.sqrt((p_b - ci_b.low) ** 2 + (ci_a.high - p_a) ** 2)
    high = d + math.sqrt((ci_b.high - p_b) ** 2 + (p_a - ci_a.low) ** 2)
    return Interval(low, high)
