"""Rank agreement: do two systems order the same configurations alike?

A proxy (an offline selector) is worth sweeping with only if it orders a grid's
configurations the way the real model does. The point estimates are Spearman's ρ and
Kendall's τ-b (ties handled as ``scipy.stats`` does); their intervals come from a request
bootstrap: whole requests are resampled, every configuration's score is recomputed on both
systems from the same draw, and the correlations are recomputed. Both correlations work
on the last axis, so one call scores every resample.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

DIGITS = 12
"""Scores are rounded to this many decimals before ranking: two configurations with the
same share of hits are a tie, whatever order the floating-point sums ran in."""


def _pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    dx = x - x.mean(axis=-1, keepdims=True)
    dy = y - y.mean(axis=-1, keepdims=True)
    norm = np.sqrt((dx * dx).sum(axis=-1) * (dy * dy).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (dx * dy).sum(axis=-1) / norm
    return np.where(norm > 0, np.clip(out, -1.0, 1.0), np.nan)


def spearman(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's ρ of ``x`` and ``y`` along the last axis (average ranks for ties);
    NaN where either side has one value only, or a NaN."""
    from scipy.stats import rankdata  # scipy.stats takes ~1 s to import: only when ranking

    x, y = np.round(np.asarray(x, float), DIGITS), np.round(np.asarray(y, float), DIGITS)
    missing = np.isnan(x).any(axis=-1) | np.isnan(y).any(axis=-1)
    rho = _pearson(rankdata(x, axis=-1), rankdata(y, axis=-1))
    return np.where(missing, np.nan, rho)


def kendall(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall's τ-b of ``x`` and ``y`` along the last axis: concordant minus discordant
    pairs over the geometric mean of the pairs untied on each side; NaN where a side is all
    ties, or holds a NaN."""
    x, y = np.round(np.asarray(x, float), DIGITS), np.round(np.asarray(y, float), DIGITS)
    i, j = np.triu_indices(x.shape[-1], k=1)
    sx, sy = np.sign(x[..., j] - x[..., i]), np.sign(y[..., j] - y[..., i])
    untied = np.count_nonzero(sx, axis=-1) * np.count_nonzero(sy, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (sx * sy).sum(axis=-1) / np.sqrt(untied)
    return np.where(untied > 0, tau, np.nan)


class ResampledScores(NamedTuple):
    """Every configuration's score on both systems, per bootstrap resample.

    Attributes:
        a: shape ``(resamples, configurations)``: system A's score of each configuration.
        b: the same for system B, from the same draws of requests.
    """

    a: np.ndarray
    b: np.ndarray


def request_bootstrap(
    a: np.ndarray,
    b: np.ndarray,
    present: np.ndarray,
    *,
    resamples: int,
    seed: int,
    chunk: int = 500,
) -> ResampledScores:
    """Resample requests with replacement and recompute each configuration's mean score.

    Args:
        a: shape ``(configurations, requests)``: system A's per-request score (its mean
            over repeats) in each configuration; any value where ``present`` is false.
        b: the same for system B.
        present: where a request has a score on both systems; a configuration's score is
            the mean over its present requests in the draw (NaN when the draw holds none).
        resamples: draws; each holds as many requests as there are.
        seed: seed of the numpy generator (same inputs and seed: same draws).
        chunk: draws per vectorised step (bounds memory at ``chunk × requests`` weights).
    """
    weight = present.astype(float)
    filled_a, filled_b = np.where(present, a, 0.0), np.where(present, b, 0.0)
    n = present.shape[1]
    rng = np.random.default_rng(seed)
    out_a = np.empty((resamples, present.shape[0]))
    out_b = np.empty_like(out_a)
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        idx = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]
        counts = np.bincount(idx.ravel(), minlength=size * n).reshape(size, n).astype(float)
        den = counts @ weight.T
        with np.errstate(invalid="ignore", divide="ignore"):
            out_a[start : start + size] = np.where(den > 0, counts @ filled_a.T / den, np.nan)
            out_b[start : start + size] = np.where(den > 0, counts @ filled_b.T / den, np.nan)
    return ResampledScores(out_a, out_b)
