"""Baselines that bound a listing's results: ``oracle`` (best possible), ``random``, ``never``."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from skillbench.selectors._params import check_params, probability_param
from skillbench.selectors._registry import SELECTORS
from skillbench.selectors._types import Decision, Query, Selector, SelectorEnv


def _timed(queries: Sequence[Query], decide: Callable[[Query], Decision]) -> list[Decision]:
    start = time.perf_counter()
    decisions = [decide(q) for q in queries]
    share = (time.perf_counter() - start) * 1000 / max(1, len(queries))
    return [
        Decision(d.kind, d.chosen, d.score, latency_ms=share, detail=d.detail) for d in decisions
    ]


class OracleSelector:
    """Invokes an expected skill when the listing shows one, else abstains.

    The upper bound a listing allows: its misses are exactly the expected skills the budget
    hid. Among several shown acceptable skills it takes the first in listing order.
    """

    name = "oracle"

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        return _timed(queries, self._decide)

    @staticmethod
    def _decide(query: Query) -> Decision:
        expected = set(query.request.expected)
        for name in query.listing.shown_names:
            if name in expected:
                return Decision("invoke", name, score=1.0)
        return Decision("abstain")


class RandomSelector:
    """Abstains with probability ``p_abstain``, else invokes a uniformly drawn shown skill.

    The generator is seeded from (run seed, request id, repeat) only, so a request gets the
    same draw in every cell with the same listing and runs are reproducible across processes.
    """

    name = "random"

    def __init__(self, seed: int, p_abstain: float) -> None:
        self.seed = seed
        self.p_abstain = p_abstain

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        return _timed(queries, self._decide)

    def _decide(self, query: Query) -> Decision:
        material = f"{self.seed}\x00{query.request.id}\x00{query.repeat}".encode()
        rng = random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))
        shown = query.listing.shown_names
        if rng.random() < self.p_abstain or not shown:
            return Decision("abstain")
        return Decision("invoke", rng.choice(shown), score=1 / len(shown))


class NeverSelector:
    """Always abstains: the floor for positives, perfect on negatives."""

    name = "never"

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        return _timed(queries, lambda q: Decision("abstain"))


@SELECTORS.register("oracle")
def oracle_selector(params: Mapping[str, Any], env: SelectorEnv) -> Selector:
    """No params."""
    check_params("oracle", params, {})
    return OracleSelector()


@SELECTORS.register("random")
def random_selector(params: Mapping[str, Any], env: SelectorEnv) -> Selector:
    """Params: ``p_abstain`` (default 0.5: half the decisions abstain)."""
    p = check_params("random", params, {"p_abstain": (probability_param, 0.5)})
    return RandomSelector(env.seed, p["p_abstain"])


@SELECTORS.register("never")
def never_selector(params: Mapping[str, Any], env: SelectorEnv) -> Selector:
    """No params."""
    check_params("never", params, {})
    return NeverSelector()
