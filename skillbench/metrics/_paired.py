"""Paired statistics: two systems judged on the same requests.

Pairing removes the between-request variance that swamps unpaired comparisons: a rewrite that
fixes 6 requests and breaks none is a clear improvement even when both accuracies have wide,
overlapping Wilson intervals.

The unit of every test and interval here is the request, never the decision. With repeats a
request's decisions are one cluster: they share the request text and the listing, so they are
not independent evidence. Each request is reduced to one score (its mean over repeats) before
anything is tested or resampled, which keeps the test exact and the interval honest however
many repeats a cell has.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from skillbench.metrics._intervals import Interval


class McNemar(NamedTuple):
    """Exact McNemar (sign) test on the requests whose score changed.

    Attributes:
        worse: requests that got worse from A to B (in the metric's direction).
        better: requests that got better.
        p_value: two-sided exact p-value: "do A and B differ?" (1.0 with no changed request).
        p_worse: one-sided exact p-value: "is B worse than A?", the chance of at least
            ``worse`` of the ``worse + better`` changed requests going the bad way when each
            goes either way with probability 1/2.
    """

    worse: int
    better: int
    p_value: float
    p_worse: float


def _tail_count(k: int, n: int) -> int:
    """``sum(C(n, i) for i in 0..k)`` in integers (so large ``n`` neither underflows nor
    loses precision)."""
    term = total = 1
    for i in range(1, k + 1):
        term = term * (n - i + 1) // i
        total += term
    return total if k >= 0 else 0


def binomial_two_sided(k: int, n: int) -> float:
    """Two-sided exact p-value of ``k`` successes in ``n`` fair coin flips.

    Doubles the smaller tail (exact for p = 0.5, where the distribution is symmetric).
    """
    if n <= 0:
        return 1.0
    return min(1.0, 2 * _tail_count(min(k, n - k), n) / 2**n)


def binomial_upper_tail(k: int, n: int) -> float:
    """``P(X >= k)`` for ``X ~ Binomial(n, 1/2)``: the one-sided exact p-value."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return _tail_count(n - k, n) / 2**n  # symmetric: P(X >= k) = P(X <= n - k)


def mcnemar_exact(worse: int, better: int) -> McNemar:
    """Exact McNemar test: under "no difference" each changed request goes either way at 1/2."""
    if worse < 0 or better < 0:
        raise ValueError("discordant counts must be non-negative")
    n = worse + better
    return McNemar(worse, better, binomial_two_sided(worse, n), binomial_upper_tail(worse, n))


def sign_test(a: Sequence[float], b: Sequence[float], *, higher_is_better: bool = True) -> McNemar:
    """Exact sign test on per-request scores; McNemar itself when each score is 0 or 1.

    Args:
        a: per-request score of A (mean over the request's repeats: one cluster, one vote).
        b: the same for B, in the same request order.
        higher_is_better: the metric's direction, which decides what "worse" means.
    """
    da, db = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if da.shape != db.shape:
        raise ValueError("paired samples must have the same length")
    diff = db - da if higher_is_better else da - db
    return mcnemar_exact(int(np.sum(diff < 0)), int(np.sum(diff > 0)))


class Resolution(NamedTuple):
    """The smallest regression a paired test on ``requests`` requests can tell from noise.

    Attributes:
        requests: paired requests in the cell.
        flips: the fewest requests that must get worse (none better) for the one-sided test
            to reach significance; None when even all of them would not.
        drop: ``flips / requests``, the same in the metric's units; None with ``flips``.
    """

    requests: int
    flips: int | None
    drop: float | None


def resolution(requests: int, alpha: float) -> Resolution:
    """The suite's resolution at ``alpha``: the best case for detection is every changed request
    going the bad way, whose one-sided p-value is ``2**-k``; the answer is the smallest such
    ``k`` below ``alpha``, if the cell has that many requests."""
    for k in range(1, requests + 1):
        if mcnemar_exact(k, 0).p_worse < alpha:
            return Resolution(requests, k, k / requests)
    return Resolution(requests, None, None)


def is_regression(test: McNemar, drop: float, *, tolerance: float, alpha: float) -> bool:
    """The gate's rule, shared by ``check`` and ``compare``: B regressed when it is worse by more
    than ``tolerance`` *and* the one-sided paired test says the drop is not noise."""
    return drop > tolerance + 1e-12 and test.p_worse < alpha


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

    This is a cluster bootstrap: each request enters as its own per-request score, so a
    request's repeats are drawn together or not at all.

    Args:
        a: per-request score of system A (its mean over repeats).
        b: the same for B, in the same request order.
        resamples: bootstrap resamples (vectorised in chunks to bound memory).
        seed: seed of the numpy generator; the same inputs and seed give the same interval.
        level: coverage of the interval.
        chunk: resamples drawn per vectorised step.
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
