"""Rank correlations (checked by hand and against scipy) and the request bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import kendalltau, spearmanr

from skillbench.metrics import kendall, request_bootstrap, spearman

MODEL = [0.2, 0.4, 0.6, 0.8]
"""A model's scores of four budgets, worst to best."""


@pytest.mark.parametrize(
    ("proxy", "rho", "tau"),
    [
        ([0.1, 0.3, 0.5, 0.7], 1.0, 1.0),  # the same order
        ([0.7, 0.5, 0.3, 0.1], -1.0, -1.0),  # reversed
        # budgets 2 and 3 swapped: d = (0, 1, 1, 0), ρ = 1 - 6·2/(4·15) = 0.8;
        # 5 concordant pairs of 6, 1 discordant: τ = (5 - 1)/6
        ([0.1, 0.5, 0.3, 0.7], 0.8, 4 / 6),
        # a tie in the proxy: ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4): ρ = 4.5/√(4.5·5);
        # τ-b: 5 concordant, 0 discordant, 5 pairs untied in x, 6 in y: 5/√30
        ([0.1, 0.3, 0.3, 0.7], 4.5 / math.sqrt(22.5), 5 / math.sqrt(30)),
    ],
)
def test_known_rankings(proxy: list[float], rho: float, tau: float) -> None:
    assert spearman(np.array(proxy), np.array(MODEL)) == pytest.approx(rho)
    assert kendall(np.array(proxy), np.array(MODEL)) == pytest.approx(tau)
    assert spearmanr(proxy, MODEL).statistic == pytest.approx(rho)
    assert kendalltau(proxy, MODEL).statistic == pytest.approx(tau)


def test_rows_agree_with_scipy_ties_included() -> None:
    """Each row of a batch is one correlation; scores on a coarse grid make many ties."""
    rng = np.random.default_rng(7)
    x = rng.integers(0, 5, size=(400, 6)) / 4
    y = rng.integers(0, 5, size=(400, 6)) / 4
    rho, tau = spearman(x, y), kendall(x, y)
    for i in range(len(x)):
        if len(set(x[i])) == 1 or len(set(y[i])) == 1:
            assert math.isnan(rho[i]) and math.isnan(tau[i])
            continue
        assert rho[i] == pytest.approx(spearmanr(x[i], y[i]).statistic, abs=1e-12)
        assert tau[i] == pytest.approx(kendalltau(x[i], y[i]).statistic, abs=1e-12)


def test_sums_in_another_order_are_still_a_tie() -> None:
    """0.1 + 0.2 is not 0.3 in floating point; as shares of hits they are the same score."""
    x = np.array([0.1 + 0.2, 0.3, 0.9])
    assert spearman(x, np.array([1.0, 1.0, 2.0])) == pytest.approx(1.0)
    assert kendall(x, np.array([1.0, 1.0, 2.0])) == pytest.approx(1.0)


def test_a_side_of_one_value_has_no_correlation() -> None:
    flat = np.array([0.5, 0.5, 0.5])
    assert math.isnan(spearman(flat, np.array([0.1, 0.2, 0.3])))
    assert math.isnan(kendall(np.array([0.1, 0.2, 0.3]), flat))


def test_bootstrap_resamples_requests_on_both_sides_alike() -> None:
    """Two configurations, four requests: a request is drawn for both systems at once,
    and a request missing from a configuration never enters its mean."""
    a = np.array([[1.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 99.0]])
    b = 1.0 - a  # B scores each request the other way round
    present = np.array([[True] * 4, [True, True, True, False]])
    draws = request_bootstrap(a, b, present, resamples=2_000, seed=3)
    assert draws.a.shape == draws.b.shape == (2_000, 2)
    second = draws.a[:, 1]
    drawn = second[np.isfinite(second)]  # NaN: a draw of request 4 only (4 times: p = 1/256)
    assert np.all((drawn >= 0) & (drawn <= 1))  # its 99 is never counted
    assert 0 < second.size - drawn.size < 30
    assert np.allclose(draws.a[:, 0] + draws.b[:, 0], 1.0)  # the same draw on both sides
    again = request_bootstrap(a, b, present, resamples=2_000, seed=3)
    assert np.array_equal(draws.a, again.a, equal_nan=True)
    assert draws.a[:, 0].mean() == pytest.approx(0.5, abs=0.02)
