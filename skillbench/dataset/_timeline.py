"""A seeded timeline for requests without ``at``: days → sessions → turns, with drifting interests.

Usage half-lives only matter when requests are spread over time and interests change, so a
dataset without timestamps gets a synthetic but documented history (docs/timeline.md):

1. **Topics.** A request's topic is ``extra["topic"]`` when given, else its first expected
   skill, else ``"(none)"`` (negatives).
2. **Drift.** Each topic has a log-popularity that starts at N(0, 1) and takes a Gaussian
   random-walk step N(0, ``drift``²) each day; a day's topic weights are the softmax of those.
   Interests therefore rise and fade over days to weeks, which is what decay acts on.
3. **Days.** Requests are spread evenly over ``days`` days (earlier days take the remainder).
4. **Sessions.** A day's requests form sessions of 1 + Geometric(1/``mean_turns``) turns. A
   session picks a topic by the day's weights; each turn stays on the session's topic with
   probability ``stickiness`` (while it has requests left), else draws a topic afresh. The
   request is drawn uniformly among the topic's remaining requests.
5. **Times.** Sessions start at uniform times between 08:00 and 20:00 UTC; turns follow
   1–10 minutes apart. Session ids are ``d<day>-s<k>``; turns count from 0.

Requests that already have ``at`` are left untouched. The same seed and input give the same
timeline; the pool is finite, so late days draw from what remains.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from skillbench.dataset._request import LabelledRequest

DEFAULT_START = datetime(2025, 1, 6, tzinfo=UTC)


def request_topic(request: LabelledRequest) -> str:
    """The topic the timeline groups ``request`` under."""
    topic = request.extra.get("topic") if request.extra else None
    if topic:
        return str(topic)
    return request.expected[0] if request.expected else "(none)"


def assign_timeline(
    requests: Sequence[LabelledRequest],
    *,
    seed: int,
    days: int = 60,
    start: datetime = DEFAULT_START,
    mean_turns: float = 3.0,
    stickiness: float = 0.6,
    drift: float = 0.35,
) -> list[LabelledRequest]:
    """``requests`` (same order) with ``at``, ``session`` and ``turn`` set where ``at`` was missing.

    Args:
        requests: labelled requests; those with ``at`` keep their time, session and turn.
        seed: seeds every random choice; same seed → same timeline.
        days: how many days the history spans.
        start: midnight (UTC) of the first day.
        mean_turns: mean turns per session.
        stickiness: chance a turn stays on its session's topic.
        drift: standard deviation of the daily random-walk step of each topic's log-popularity.
    """
    if days < 1:
        raise ValueError("days must be at least 1")
    rng = random.Random(seed)
    todo = [i for i, r in enumerate(requests) if r.at is None]
    pools: dict[str, list[int]] = {}
    for i in todo:
        pools.setdefault(request_topic(requests[i]), []).append(i)
    topics = sorted(pools)
    for topic in topics:
        rng.shuffle(pools[topic])
    log_pop = {t: rng.gauss(0.0, 1.0) for t in topics}
    per_day = [len(todo) // days + (1 if d < len(todo) % days else 0) for d in range(days)]
    out = list(requests)
    for day, quota in enumerate(per_day):
        weights = _softmax(log_pop)
        k = 0
        while quota > 0:
            turns = min(quota, _geometric(rng, mean_turns))
            quota -= turns
            at = start + timedelta(days=day, seconds=rng.uniform(8 * 3600, 20 * 3600))
            topic = _draw(rng, weights, pools)
            for turn in range(turns):
                if not pools[topic] or rng.random() >= stickiness:
                    topic = _draw(rng, weights, pools)
                i = pools[topic].pop()
                out[i] = dataclasses.replace(
                    requests[i],
                    at=at.replace(microsecond=0),
                    session=f"d{day:03d}-s{k:02d}",
                    turn=turn,
                )
                at += timedelta(seconds=rng.uniform(60, 600))
            k += 1
        for t in topics:
            log_pop[t] += rng.gauss(0.0, drift)
    return out


def _softmax(log_pop: dict[str, float]) -> dict[str, float]:
    top = max(log_pop.values(), default=0.0)
    return {t: math.exp(v - top) for t, v in log_pop.items()}


def _geometric(rng: random.Random, mean: float) -> int:
    """1 + Geometric failures with the given mean (≥ 1)."""
    p = 1.0 / max(mean, 1.0)
    n = 1
    while rng.random() >= p:
        n += 1
    return n


def _draw(rng: random.Random, weights: dict[str, float], pools: dict[str, list[int]]) -> str:
    live = [t for t in sorted(pools) if pools[t]]
    return rng.choices(live, weights=[weights[t] for t in live])[0]
