"""Selectors that score shown skills and abstain under a threshold, and fitting that threshold.

The embedding, lexical and hybrid selectors all work in two steps: ``score`` a batch once
(expensive: model calls, matrix products), then ``decide`` each query for a threshold (cheap).
Calibration reuses the scores: every query's correctness is a step function of the
threshold whose steps sit at its own ``cuts``, so all thresholds are evaluated exactly.
"""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np

from skillbench._errors import SkillbenchError
from skillbench.selectors._types import Calibration, Decision, Preparable, Query, Selector
from skillbench.types import CORRECT, classify

S = TypeVar("S")
"""A selector's per-query scores (whatever ``decide`` needs)."""


class Choice(NamedTuple):
    """A decision before timing: the skill to invoke (None = abstain), its score and extras."""

    chosen: str | None
    score: float | None
    detail: Mapping[str, object]


class ThresholdSelector(ABC, Generic[S]):
    """Base of score-then-threshold selectors.

    Attributes:
        name: the selector type.
        threshold: invoke only when the score is at least this; ``None`` until calibrated
            when the config says ``threshold: auto``.
    """

    name: str
    threshold: float | None

    @abstractmethod
    def score(self, queries: Sequence[Query]) -> list[S]:
        """Score every shown skill of every query (one batch of model work)."""

    @abstractmethod
    def decide(self, scores: S, threshold: float) -> Choice:
        """The decision for one query's scores under ``threshold``."""

    @abstractmethod
    def cuts(self, scores: S) -> Sequence[float]:
        """Scores where this query's decision may change as the threshold moves."""

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        if self.threshold is None:
            raise SkillbenchError(
                f"selector {self.name!r} has threshold: auto but was not calibrated "
                "(give it a train split)"
            )
        start = time.perf_counter()
        choices = [self.decide(s, self.threshold) for s in self.score(queries)]
        share = (time.perf_counter() - start) * 1000 / max(1, len(queries))
        return [
            Decision(
                kind="abstain" if c.chosen is None else "invoke",
                chosen=c.chosen,
                score=c.score,
                latency_ms=share,
                detail=c.detail,
            )
            for c in choices
        ]

    def fit_threshold(self, queries: Sequence[Query]) -> float:
        """The threshold maximising accuracy on labelled ``queries`` (see ``best_threshold``)."""
        steps = []
        for query, scores in zip(queries, self.score(queries), strict=True):
            cuts = np.unique(np.asarray(self.cuts(scores), dtype=np.float64))
            probes = [*cuts.tolist(), math.inf]
            values = [_correct(query, self.decide(scores, t).chosen) for t in probes]
            steps.append((cuts, np.asarray(values, dtype=np.int64)))
        return best_threshold(steps)


@dataclass(frozen=True, slots=True)
class EntryScores:
    """One query's score for each shown entry, in listing order."""

    names: tuple[str, ...]
    values: np.ndarray


def top(scores: EntryScores, k: int = 3) -> list[list[Any]]:
    """The ``k`` best ``[name, score]`` pairs, for results ``detail``."""
    order = np.argsort(-scores.values, kind="stable")[:k]
    return [[scores.names[i], round(float(scores.values[i]), 4)] for i in order]


class TopOneSelector(ThresholdSelector[EntryScores]):
    """Invokes the best-scoring shown entry when its score reaches the threshold."""

    def decide(self, scores: EntryScores, threshold: float) -> Choice:
        if not scores.names:
            return Choice(None, None, {"top": []})
        best = int(np.argmax(scores.values))
        value = float(scores.values[best])
        chosen = scores.names[best] if value >= threshold else None
        return Choice(chosen, value, {"top": top(scores)})

    def cuts(self, scores: EntryScores) -> Sequence[float]:
        return [float(scores.values.max())] if scores.names else []


def with_threshold(selector: ThresholdSelector[Any], threshold: float | str) -> Selector:
    """``selector`` with a fixed ``threshold``, or wrapped for calibration when ``auto``."""
    if threshold == "auto":
        return AutoThreshold(selector)
    selector.threshold = float(threshold)
    return selector


class AutoThreshold(Generic[S]):
    """A threshold selector whose threshold is fitted on train queries (``threshold: auto``).

    Only this wrapper implements ``Calibratable``, so the engine calibrates exactly the
    selectors configured for it.
    """

    def __init__(self, inner: ThresholdSelector[S]) -> None:
        self.inner = inner
        self.name = inner.name
        inner.threshold = None

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        return self.inner.select(queries)

    def prepare(self, texts: Sequence[str]) -> None:
        if isinstance(self.inner, Preparable):
            self.inner.prepare(texts)

    def calibrate(self, queries: Sequence[Query]) -> Calibration:
        if not queries:
            raise SkillbenchError(f"selector {self.name!r}: cannot calibrate on 0 train queries")
        self.inner.threshold = self.inner.fit_threshold(queries)
        return Calibration(threshold=self.inner.threshold)


def best_threshold(steps: Sequence[tuple[np.ndarray, np.ndarray]]) -> float:
    """The accuracy-maximising threshold for queries given as step functions.

    Each step is ``(cuts, values)``: sorted unique cuts ``c_0 < … < c_k-1`` and ``k + 1``
    0/1 values, ``values[j]`` being the query's correctness for thresholds in
    ``(c_j-1, c_j]`` (``values[k]`` above every cut). Ties go to the highest threshold
    (fewest invocations); the result is the midpoint of the winning interval, so it keeps a
    margin from the train scores on both sides. Deterministic.
    """
    all_cuts = np.unique(np.concatenate([c for c, _ in steps] or [np.zeros(0)]))
    if all_cuts.size == 0:
        return 0.0
    top = math.nextafter(float(all_cuts[-1]), math.inf)
    probes = np.append(all_cuts, top)
    totals = np.zeros(probes.size, dtype=np.int64)
    for cuts, values in steps:
        totals += values[np.searchsorted(cuts, probes, side="left")]
    best = int(np.flatnonzero(totals == totals.max())[-1])
    if best == probes.size - 1 or best == 0:
        return float(probes[best])
    return float((probes[best - 1] + probes[best]) / 2)


def _correct(query: Query, chosen: str | None) -> int:
    """1 when invoking ``chosen`` (None = abstain) is a correct decision for ``query``."""
    shown = query.listing.shown_names
    decision = Decision("abstain") if chosen is None else Decision("invoke", chosen)
    outcome = classify(query.request.expected, decision, shown)
    return int(outcome in CORRECT)
