"""McNemar (two- and one-sided), sign test, resolution and the paired bootstrap against
hand-computed values and scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest

from skillbench.metrics import (
    Resolution,
    binomial_two_sided,
    binomial_upper_tail,
    is_regression,
    mcnemar_exact,
    paired_bootstrap,
    resolution,
    sign_test,
)


@pytest.mark.parametrize(
    ("k", "n", "expected"),
    [
        (0, 5, 2 / 32),  # both tails of the all-heads/all-tails outcome
        (1, 6, 2 * 7 / 64),  # 2 * (C(6,0) + C(6,1)) / 2^6
        (1, 9, 2 * 10 / 512),
        (3, 6, 1.0),  # the centre: capped at 1
        (0, 0, 1.0),  # no discordant pairs: no evidence
    ],
)
def test_binomial_two_sided_hand_computed(k: int, n: int, expected: float) -> None:
    assert binomial_two_sided(k, n) == pytest.approx(expected)


@pytest.mark.parametrize(("k", "n"), [(0, 1), (2, 11), (7, 20), (40, 100), (180, 400), (13, 13)])
def test_binomial_two_sided_matches_scipy(k: int, n: int) -> None:
    assert binomial_two_sided(k, n) == pytest.approx(binomtest(k, n, 0.5).pvalue, rel=1e-9)


def test_binomial_large_n_does_not_underflow() -> None:
    p = binomial_two_sided(4_000, 10_000)
    assert 0 < p < 1e-80
    assert p == pytest.approx(binomtest(4_000, 10_000, 0.5).pvalue, rel=1e-6)


def test_mcnemar_counts_and_p_values() -> None:
    result = mcnemar_exact(worse=6, better=0)
    assert (result.worse, result.better) == (6, 0)
    assert result.p_value == pytest.approx(2 / 64)
    assert result.p_worse == pytest.approx(1 / 64)  # all six of six went the bad way


@pytest.mark.parametrize(
    ("worse", "better"), [(0, 0), (1, 0), (0, 1), (5, 0), (8, 1), (3, 3), (2, 9), (20, 0), (90, 70)]
)
def test_one_sided_p_matches_scipy(worse: int, better: int) -> None:
    n = worse + better
    expected = binomtest(worse, n, 0.5, alternative="greater").pvalue if n else 1.0
    assert mcnemar_exact(worse, better).p_worse == pytest.approx(expected, rel=1e-9)


def test_upper_tail_edges() -> None:
    assert binomial_upper_tail(0, 7) == 1.0
    assert binomial_upper_tail(8, 7) == 0.0
    assert binomial_upper_tail(3, 4) == pytest.approx(5 / 16)  # C(4,3) + C(4,4) over 2^4


@pytest.mark.parametrize(
    ("requests", "alpha", "flips"),
    [
        (30, 0.05, 5),  # 2^-4 = 0.0625 is not below 0.05, 2^-5 = 0.03125 is
        (30, 0.025, 6),  # 2^-5 = 0.03125 is not below 0.025, 2^-6 is
        (300, 0.01, 7),  # 2^-7 = 0.0078
        (4, 0.05, None),  # even 4 of 4 gives 2^-4 = 0.0625
        (5, 0.05, 5),
    ],
)
def test_resolution_by_hand(requests: int, alpha: float, flips: int | None) -> None:
    drop = None if flips is None else flips / requests
    assert resolution(requests, alpha) == Resolution(requests, flips, drop)


def test_regression_needs_both_tolerance_and_significance() -> None:
    significant, noise = mcnemar_exact(6, 0), mcnemar_exact(1, 0)
    assert is_regression(significant, 0.2, tolerance=0.02, alpha=0.05)
    assert not is_regression(significant, 0.2, tolerance=0.25, alpha=0.05)
    assert not is_regression(noise, 1 / 30, tolerance=0.02, alpha=0.05)


def test_sign_test_averages_repeats_per_request() -> None:
    # request 0: A 3/3, B 1/3 (worse); request 1: A 0/3, B 2/3 (better); request 2: tie
    a = [1.0, 0.0, 2 / 3]
    b = [1 / 3, 2 / 3, 2 / 3]
    assert sign_test(a, b) == mcnemar_exact(1, 1)


def test_sign_test_direction_for_lower_is_better() -> None:
    # a false-invocation rate rising on two requests and falling on none is "worse"
    a, b = [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]
    assert sign_test(a, b, higher_is_better=False) == mcnemar_exact(2, 0)
    assert sign_test(a, b) == mcnemar_exact(0, 2)


def test_bootstrap_degenerate_cases_are_exact() -> None:
    same = paired_bootstrap([1, 0, 1, 1], [1, 0, 1, 1], resamples=500)
    assert same.diff == 0 and tuple(same.ci) == (0, 0)
    shifted = paired_bootstrap([0, 0, 0], [1, 1, 1], resamples=500)
    assert shifted.diff == 1 and tuple(shifted.ci) == (1, 1)


def test_bootstrap_matches_normal_theory_and_is_seeded() -> None:
    # 400 requests: 60 better, 20 worse -> diff 0.1, sd of d = sqrt(0.2 - 0.01)
    a = np.array([0] * 60 + [1] * 20 + [1] * 320)
    b = np.array([1] * 60 + [0] * 20 + [1] * 320)
    boot = paired_bootstrap(a, b, resamples=10_000, seed=7)
    half = 1.96 * math.sqrt((0.2 - 0.01) / 400)
    assert boot.diff == pytest.approx(0.1)
    assert boot.ci.low == pytest.approx(0.1 - half, abs=0.006)
    assert boot.ci.high == pytest.approx(0.1 + half, abs=0.006)
    assert paired_bootstrap(a, b, seed=7) == boot
