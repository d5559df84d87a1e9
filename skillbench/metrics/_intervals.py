"""Confidence intervals for rates."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

Z95 = 1.959963984540054


class Interval(NamedTuple):
    low: float
    high: float


def wilson(successes: int, n: int, z: float = Z95) -> Interval:
    """Wilson score interval; well-behaved at 0, 1 and small n, unlike the normal approximation.

    Returns ``(nan, nan)`` for n == 0 so an empty cell never reads as certainty.
    """
    if n <= 0:
        return Interval(math.nan, math.nan)
    if not 0 <= successes <= n:
        raise ValueError(f"successes={successes} outside 0..{n}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # Exact ends at 0 and n: rounding would otherwise leave the bound a hair past the rate.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(low, high)


def rate(successes: int, n: int) -> float | None:
    """``successes / n``, or ``None`` when ``n`` is 0 (undefined, not zero)."""
    return successes / n if n > 0 else None


def wilson_json(successes: int, n: int) -> list[float] | None:
    """The Wilson 95% interval as a JSON-ready ``[low, high]``, ``None`` when ``n`` is 0."""
    return list(wilson(successes, n)) if n > 0 else None


def bootstrap_ratio(
    numerators: Sequence[float],
    denominators: Sequence[float],
    counts: Sequence[int],
    *,
    resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> Interval:
    """Percentile bootstrap interval of ``Σ numerator / Σ denominator`` over resampled rows.

    Rows are summarised as categories (``counts[i]`` rows each contributing
    ``numerators[i]`` and ``denominators[i]``), so resampling is one multinomial draw per
    replicate however many rows there are; for statistics like F1 that no binomial interval
    covers. Deterministic for a given ``seed``; ``(nan, nan)`` when there are no rows.
    """
    import numpy as np

    n = int(sum(counts))
    if n == 0:
        return Interval(math.nan, math.nan)
    draws = np.random.default_rng(seed).multinomial(n, np.asarray(counts) / n, size=resamples)
    num = draws @ np.asarray(numerators, dtype=np.float64)
    den = draws @ np.asarray(denominators, dtype=np.float64)
    ratios = np.divide(num, den, out=np.full(resamples, np.nan), where=den > 0)
    ratios = ratios[~np.isnan(ratios)]
    if ratios.size == 0:
        return Interval(math.nan, math.nan)
    alpha = (1 - level) / 2
    low, high = np.quantile(ratios, [alpha, 1 - alpha])
    return Interval(float(low), float(high))
