"""Repeats: per-request trigger rate over k samples, pass^k consistency, trigger threshold.

With ``repeats: k`` and temperature > 0 a request is sampled k times per cell. skill-creator
counts a request as triggering when its trigger *rate* reaches a threshold (3 runs, 0.5);
pass^k (tau-bench) asks whether an agent gets a request right on *every* one of k tries.

A repeat "triggers" when, for a request that should trigger, the model chose an acceptable
skill; for a request that should not, when it invoked anything (hallucinated names included).
A repeat "passes" when its outcome is ``correct_skill`` or ``correct_abstain``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import comb
from typing import TYPE_CHECKING, Any, Literal

from pydantic import SerializationInfo, model_serializer
from pydantic_core.core_schema import SerializerFunctionWrapHandler

from skillbench.metrics._intervals import wilson_json
from skillbench.types import CORRECT, INVOKED, CellKey, Record

if TYPE_CHECKING:
    from skillbench.types import ResultRow

DEFAULT_TRIGGER_THRESHOLD = 0.5


class RequestRepeats:
    """One request's repeats in one cell."""

    __slots__ = ("n", "passed", "positive", "request_id", "triggered")

    def __init__(self, request_id: str, positive: bool) -> None:
        self.request_id = request_id
        self.positive = positive
        self.n = 0
        self.triggered = 0
        self.passed = 0

    def add(self, outcome: str) -> None:
        self.n += 1
        self.passed += outcome in CORRECT
        if self.positive:
            self.triggered += outcome == "correct_skill"
        else:
            self.triggered += outcome in INVOKED

    @property
    def trigger_rate(self) -> float:
        return self.triggered / self.n if self.n else 0.0

    def passes_threshold(self, threshold: float) -> bool:
        """skill-creator's rule: positives need rate >= threshold, negatives rate < threshold."""
        return self.trigger_rate >= threshold if self.positive else self.trigger_rate < threshold


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of P(all of k tries pass) from c passes in n tries: C(c,k) / C(n,k)."""
    if not 1 <= k <= n:
        raise ValueError(f"k={k} outside 1..{n}")
    if not 0 <= c <= n:
        raise ValueError(f"c={c} outside 0..{n}")
    return comb(c, k) / comb(n, k)


def group_repeats(
    rows: Iterable[ResultRow], *, split: str | None = "test"
) -> dict[CellKey, list[RequestRepeats]]:
    """Rows grouped by cell (``CellKey``), then by request, in first-seen order.

    Rows of another ``split`` (calibration train rows) are left out; ``split=None`` keeps all.
    """
    cells: dict[CellKey, dict[str, RequestRepeats]] = {}
    for row in rows:
        if split is not None and row.split != split:
            continue
        requests = cells.setdefault(row.key, {})
        rid = row.request_id
        if rid not in requests:
            requests[rid] = RequestRepeats(rid, bool(row.expected))
        requests[rid].add(row.outcome)
    return {key: list(reqs.values()) for key, reqs in cells.items()}


class RepeatStats(Record):
    """A cell's repeat statistics (the summary cell's ``repeats`` section)."""

    repeats: int
    """The smallest repeat count of any request (0: no request)."""
    threshold: float
    """Trigger rate at or above which a request counts as triggering."""
    requests: int | None = None
    """Requests over which the figures below are taken (absent when there are none)."""
    mean_trigger_rate_positive: float | None = None
    """Mean per-request trigger rate over positives."""
    mean_trigger_rate_negative: float | None = None
    """Mean per-request trigger rate over negatives."""
    pass_k: dict[str, float] | None = None
    """pass^k for k = 1 … repeats, averaged over requests (each from its own n)."""
    consistent: float | None = None
    """Share of requests whose repeats all agree."""
    threshold_accuracy: float | None = None
    """Share of requests on the right side of `threshold`."""
    threshold_accuracy_ci: list[float] | None = None
    """95% Wilson interval of `threshold_accuracy`."""
    mode: Literal["full", "adaptive"] = "full"
    """`adaptive`: a request's repeats stopped once its verdict was settled."""
    skipped: int | None = None
    """Adaptive mode: repeats not asked for (the calls saved); `repeats` is then the
    fewest any request got."""

    @model_serializer(mode="wrap")
    def _only_counts_without_requests(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if self.mode == "full":
            del data["mode"], data["skipped"]
        if self.requests is None:
            return {"repeats": data["repeats"], "threshold": data["threshold"]}
        return data


def repeat_metrics(
    requests: Sequence[RequestRepeats], threshold: float = DEFAULT_TRIGGER_THRESHOLD
) -> RepeatStats:
    """A cell's repeat statistics over its requests' repeats at ``threshold``."""
    if not requests:
        return RepeatStats(repeats=0, threshold=threshold)
    k_max = min(r.n for r in requests)
    pos = [r.trigger_rate for r in requests if r.positive]
    neg = [r.trigger_rate for r in requests if not r.positive]
    passed = sum(r.passes_threshold(threshold) for r in requests)
    consistent = sum(r.passed in (0, r.n) for r in requests)
    return RepeatStats(
        repeats=k_max,
        requests=len(requests),
        mean_trigger_rate_positive=None if not pos else sum(pos) / len(pos),
        mean_trigger_rate_negative=None if not neg else sum(neg) / len(neg),
        pass_k={
            str(k): sum(pass_hat_k(r.n, r.passed, k) for r in requests) / len(requests)
            for k in range(1, k_max + 1)
        },
        consistent=consistent / len(requests),
        threshold=threshold,
        threshold_accuracy=passed / len(requests),
        threshold_accuracy_ci=wilson_json(passed, len(requests)),
    )


def calls_saved(stats: Iterable[RepeatStats | None]) -> int | None:
    """Repeats adaptive mode skipped over these cells (None: no cell was adaptive)."""
    adaptive = [s for s in stats if s is not None and s.mode == "adaptive"]
    return sum(s.skipped or 0 for s in adaptive) if adaptive else None


def trigger_rates(requests: Sequence[RequestRepeats]) -> dict[str, float]:
    """Per-request trigger rate k/n, by request id."""
    return {r.request_id: r.trigger_rate for r in requests}
