"""Intervals against independent implementations and published values."""

from __future__ import annotations

import math

import pytest
from scipy.stats import binomtest

from skillbench.metrics import bootstrap_ratio, wilson, wilson_json


@pytest.mark.parametrize(("k", "n"), [(0, 10), (1, 10), (5, 10), (10, 10), (81, 263), (3, 1000)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    ref = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == pytest.approx((ref.low, ref.high), abs=1e-9)


def test_wilson_published_values() -> None:
    # Newcombe (1998), Table I: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775.
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)


def test_wilson_json_is_null_for_empty() -> None:
    assert wilson_json(0, 0) is None
    assert math.isnan(wilson(0, 0).low)
    assert wilson_json(2, 4) == list(wilson(2, 4))


def test_bootstrap_ratio_is_deterministic_and_brackets_the_estimate() -> None:
    # 30 rows of (1/1) and 70 rows of (0/1): ratio 0.3; interval close to Wilson's.
    args = ([1.0, 0.0], [1.0, 1.0], [30, 70])
    low, high = bootstrap_ratio(*args)
    assert (low, high) == bootstrap_ratio(*args)
    assert low < 0.3 < high
    w = wilson(30, 100)
    assert low == pytest.approx(w.low, abs=0.03) and high == pytest.approx(w.high, abs=0.03)
    assert math.isnan(bootstrap_ratio([1.0], [1.0], [0]).low)
