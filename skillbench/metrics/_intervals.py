"""Confidence intervals for rates."""

from __future__ import annotations

import math
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
    return Interval(max(0.0, centre - half), min(1.0, centre + half))
