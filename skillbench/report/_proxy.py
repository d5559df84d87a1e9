"""Proxy validity: does an offline selector rank a grid's configurations like the model?

Sweeping budgets or descriptions with a real model costs money per decision, so most sweeps
run an offline selector (embedding, lexical) and trust its ranking. ``check_proxy`` takes a
proxy run and a model run of the same grid and says how far that trust goes: the rank
correlation of the configurations (Spearman, Kendall) with request-bootstrap intervals,
whether the proxy's best configuration is the model's (or within noise of it), how many
configuration pairs the proxy orders like the model, how often the two make the same
decision, and a verdict by a stated rule (``_verdict``; docs/reports.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np
from scipy.stats import rankdata

from skillbench._errors import SkillbenchError
from skillbench.metrics import DIGITS, Metric, kendall, request_bootstrap, spearman
from skillbench.report._compare import metric_for
from skillbench.report._pairing import family_alpha, request_scores
from skillbench.report._proxy_sides import (
    CONFIG_FIELDS,
    Config,
    Side,
    by_request,
    config_label,
    failed_controls,
    read_side,
    require_same_grid,
    require_same_requests_and_labels,
    train_ids,
)
from skillbench.report._run import fmt_value, sort_value
from skillbench.report._select import Selection
from skillbench.results import MODEL_TYPES, ResultRow
from skillbench.types import SIZE_FIELDS, UNANSWERED, JsonObject

MIN_CONFIGS = 3
"""Fewer configurations than this cannot be ranked meaningfully (two make one pair)."""
MIN_REQUESTS = 30
"""Fewer paired requests than this leave every interval too wide to judge."""
DEFAULT_MIN_RHO = 0.5
"""The lower bound of Spearman's interval must reach this for a "yes"."""
UNDEFINED_SHARE = 0.05
"""A correlation undefined in more than this share of resamples gets no interval."""

Answer = Literal["yes", "no", "not enough data"]
Pick = Literal["same", "within noise", "differs"]


class Correlation(NamedTuple):
    """A rank correlation, its bootstrap interval (None when too many resamples left it
    undefined) and the resamples where it was undefined (a side scored all alike)."""

    value: float | None
    ci: tuple[float, float] | None
    undefined: int


class Configuration(NamedTuple):
    """One configuration's score on each side, over its paired requests."""

    label: str
    config: Config
    proxy: float
    model: float
    requests: int
    same_choice: float | None
    """Share of its decisions where both sides chose the same skill or both abstained."""
    proxy_rank: float
    """1 for the proxy's best configuration (ties share their average rank)."""
    model_rank: float


class PairOrder(NamedTuple):
    """Two configurations' difference (second minus first) on each side, with intervals."""

    first: str
    second: str
    proxy: float
    proxy_ci: tuple[float, float]
    model: float
    model_ci: tuple[float, float]

    @property
    def model_clear(self) -> bool:
        """The model tells the two apart: its interval excludes zero."""
        return self.model_ci[0] > 0 or self.model_ci[1] < 0

    @property
    def proxy_clear(self) -> bool:
        return self.proxy_ci[0] > 0 or self.proxy_ci[1] < 0

    @property
    def agree(self) -> bool:
        """Both order the two the same way (a tie on one side only is a disagreement)."""
        return bool(np.sign(round(self.proxy, DIGITS)) == np.sign(round(self.model, DIGITS)))

    @property
    def contradicted(self) -> bool:
        """Both tell the two apart, in opposite directions."""
        return self.model_clear and self.proxy_clear and not self.agree


class BestPick(NamedTuple):
    """The best configuration by each side, and what trusting the proxy's costs on the model.

    ``proxy`` is the proxy's best (of tied ones, the one the model scores lowest);
    ``regret`` the model's score of its own best minus its score of ``proxy``, in the
    metric's good direction, with its interval.
    """

    proxy: str
    model: str
    status: Pick
    regret: float
    regret_ci: tuple[float, float]


@dataclass(frozen=True)
class ProxyCheck:
    """Everything ``compare --proxy`` reports."""

    proxy: Side
    model: Side
    metric: Metric
    level: float
    min_rho: float
    resamples: int
    seed: int
    axes: list[str]
    requests: int
    held_out: int
    configurations: list[Configuration]
    spearman: Correlation
    kendall: Correlation
    best: BestPick | None
    pairs: list[PairOrder]
    same_choice: float | None
    decisions: int
    answer: Answer
    reason: str
    notes: list[str]

    @property
    def subject(self) -> str:
        """``budgets`` or ``the 6 configurations (budget × ordering)``."""
        if len(self.axes) == 1:
            return AXIS_PLURAL.get(self.axes[0], self.axes[0] + " values")
        axes = " × ".join(self.axes) or "one setting"
        return f"the {len(self.configurations)} configurations ({axes})"

    @property
    def verdict_line(self) -> str:
        return (
            f"the {self.proxy.selector} proxy ranks {self.subject} like the model "
            f"{self.model.name}: {self.answer} ({self.reason})"
        )

    def to_json(self) -> JsonObject:
        def side(s: Side) -> JsonObject:
            return {
                "run": str(s.selection),
                "selector": s.selector,
                "type": s.type,
                "model": s.model,
            }

        def corr(c: Correlation) -> JsonObject:
            return {
                "value": c.value,
                "ci": None if c.ci is None else list(c.ci),
                "undefined_resamples": c.undefined,
            }

        return _finite(
            {
                "proxy": side(self.proxy),
                "model": side(self.model),
                "metric": self.metric.name,
                "higher_is_better": self.metric.higher_is_better,
                "level": self.level,
                "min_rho": self.min_rho,
                "resamples": self.resamples,
                "seed": self.seed,
                "axes": list(self.axes),
                "requests": self.requests,
                "held_out": self.held_out,
                "configurations": [
                    {
                        "label": c.label,
                        "cell": {
                            k: v
                            for k, v in zip(CONFIG_FIELDS, c.config, strict=True)
                            if v is not None or k not in SIZE_FIELDS
                        },
                        "proxy": c.proxy,
                        "model": c.model,
                        "requests": c.requests,
                        "same_choice": c.same_choice,
                        "proxy_rank": c.proxy_rank,
                        "model_rank": c.model_rank,
                    }
                    for c in self.configurations
                ],
                "spearman": corr(self.spearman),
                "kendall": corr(self.kendall),
                "best": None if self.best is None else self.best._asdict(),
                "pairs": {
                    "total": len(self.pairs),
                    "model_clear": sum(p.model_clear for p in self.pairs),
                    "agree": sum(p.agree for p in self.pairs if p.model_clear),
                    "contradicted": sum(p.contradicted for p in self.pairs),
                    "within_noise": sum(not p.model_clear for p in self.pairs),
                    "within_noise_proxy_clear": sum(
                        p.proxy_clear for p in self.pairs if not p.model_clear
                    ),
                    "list": [
                        {
                            **p._asdict(),
                            "model_clear": p.model_clear,
                            "proxy_clear": p.proxy_clear,
                            "agree": p.agree,
                        }
                        for p in self.pairs
                    ],
                },
                "decisions": {"paired": self.decisions, "same_choice": self.same_choice},
                "verdict": {
                    "answer": self.answer,
                    "reason": self.reason,
                    "line": self.verdict_line,
                },
                "notes": list(self.notes),
            }
        )


def _finite(value: Any) -> Any:
    """``value`` with NaN (an interval no resample defined) as null: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


AXIS_PLURAL = {
    "budget": "budgets",
    "ordering": "orderings",
    "profile": "profiles",
    "half_life": "half-lives",
    "catalog": "catalogs",
    "catalog_size": "catalog sizes",
    "distractors": "distractor modes",
}


def _choice(row: ResultRow) -> str | None:
    """What a decision did: the skill invoked, ``<malformed>`` for an unusable call, None
    for an abstention."""
    if row.chosen is None and row.outcome == "malformed":
        return "<malformed>"
    return row.chosen


def _same_choice(a: Sequence[ResultRow], b: Sequence[ResultRow]) -> list[float]:
    """Per request answered on both sides: the share of (proxy repeat, model repeat) pairs
    that chose alike. Rows without an answer are not decisions."""
    ra, rb = (
        by_request(r for r in a if r.outcome not in UNANSWERED),
        by_request(r for r in b if r.outcome not in UNANSWERED),
    )
    out = []
    for rid in sorted(ra.keys() & rb.keys()):
        ca, cb = [_choice(r) for r in ra[rid]], [_choice(r) for r in rb[rid]]
        out.append(sum(x == y for x in ca for y in cb) / (len(ca) * len(cb)))
    return out


def _interval(values: np.ndarray, level: float) -> tuple[float, float] | None:
    finite = values[np.isfinite(values)]
    if finite.size == 0 or finite.size < (1 - UNDEFINED_SHARE) * values.size:
        return None
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return float(low), float(high)


def _correlation(point: float, resampled: np.ndarray, level: float) -> Correlation:
    undefined = int(np.count_nonzero(~np.isfinite(resampled)))
    value = None if np.isnan(point) else float(point)
    return Correlation(value, _interval(resampled, level), undefined)


def _diff(x: np.ndarray, level: float) -> tuple[float, float]:
    found = _interval(x, level)
    return found if found is not None else (float("nan"), float("nan"))


def check_proxy(
    proxy: Selection,
    model: Selection,
    *,
    metric: str = "accuracy",
    alpha: float = 0.05,
    min_rho: float = DEFAULT_MIN_RHO,
    resamples: int = 10_000,
    seed: int = 0,
) -> ProxyCheck:
    """How well the proxy side's ranking of configurations predicts the model side's.

    Each configuration's score is the mean, over the requests both sides answered, of each
    request's score (its mean over repeats); requests either side calibrated on are left
    out of both. Intervals are percentile intervals at ``1 - alpha`` from ``resamples``
    request resamples (seeded), shared by every figure so they agree with each other.

    Raises:
        SkillbenchError: a run that did not finish, sides of several or no selectors, grids
            or request sets or labels that differ, a metric not defined per request.
    """
    m = metric_for(metric, proxy.path)
    if not m.per_row:
        raise SkillbenchError(f"metric {metric!r} cannot be scored per request; use accuracy")
    level = 1 - family_alpha(alpha, 1)
    if resamples < 1:
        raise SkillbenchError(f"--resamples must be at least 1, got {resamples}")
    if not -1 <= min_rho <= 1:
        raise SkillbenchError(f"--min-rho must be in [-1, 1], got {min_rho}")
    p = read_side(proxy, "proxy")
    same_run = model.path.resolve() == proxy.path.resolve()
    q = read_side(model, "model", p.run if same_run else None)
    if same_run and p.selector == q.selector:
        raise SkillbenchError(f"both sides are selector {p.selector}: choose two selectors")
    require_same_grid(p, q)
    require_same_requests_and_labels(p, q)
    rows_p, rows_q = p.rows(), q.rows()
    held = train_ids(rows_p.values()) | train_ids(rows_q.values())
    configs = sorted(p.cells, key=lambda c: tuple(map(sort_value, c)))
    axes = [f for i, f in enumerate(CONFIG_FIELDS) if len({fmt_value(c[i]) for c in configs}) > 1]
    scores_p, scores_q, same = [], [], []
    for c in configs:
        kept_p = [r for r in rows_p[c] if r.request_id not in held]
        kept_q = [r for r in rows_q[c] if r.request_id not in held]
        scores_p.append(request_scores(kept_p, m))
        scores_q.append(request_scores(kept_q, m))
        same.append(_same_choice(kept_p, kept_q))
    ids = sorted(set().union(*scores_p, *scores_q))
    present = np.array(
        [[i in sp and i in sq for i in ids] for sp, sq in zip(scores_p, scores_q, strict=True)]
    )
    labels = [config_label(c, axes) for c in configs]
    empty = [labels[k] for k in range(len(configs)) if not present[k].any()]
    if empty:
        raise SkillbenchError(
            f"no request answered on both sides in {', '.join(empty[:3])} (metric {m.name})"
        )
    a = np.array([[sp.get(i, 0.0) for i in ids] for sp in scores_p])
    b = np.array([[sq.get(i, 0.0) for i in ids] for sq in scores_q])
    count = present.sum(axis=1)
    vp, vq = (a * present).sum(axis=1) / count, (b * present).sum(axis=1) / count
    boot = request_bootstrap(a, b, present, resamples=resamples, seed=seed)
    pairs = [
        PairOrder(
            labels[i],
            labels[j],
            float(vp[j] - vp[i]),
            _diff(boot.a[:, j] - boot.a[:, i], level),
            float(vq[j] - vq[i]),
            _diff(boot.b[:, j] - boot.b[:, i], level),
        )
        for i in range(len(configs))
        for j in range(i + 1, len(configs))
    ]
    sign = 1.0 if m.higher_is_better else -1.0
    rank_p, rank_q = (rankdata(np.round(-sign * v, DIGITS)) for v in (vp, vq))
    rows = [
        Configuration(
            labels[k],
            c,
            float(vp[k]),
            float(vq[k]),
            int(count[k]),
            _mean(same[k]),
            float(rank_p[k]),
            float(rank_q[k]),
        )
        for k, c in enumerate(configs)
    ]
    units = [x for per_config in same for x in per_config]
    requests = int(present.any(axis=0).sum())
    rho = _correlation(float(spearman(vp, vq)), spearman(boot.a, boot.b), level)
    tau = _correlation(float(kendall(vp, vq)), kendall(boot.a, boot.b), level)
    best = _best(vp, vq, boot.b, labels, m, level) if len(configs) > 1 else None
    notes = _notes(p, q)
    answer, reason = _verdict(
        len(rows), requests, len(failed_controls(q)), rho, best, pairs, min_rho
    )
    return ProxyCheck(
        proxy=p,
        model=q,
        metric=m,
        level=level,
        min_rho=min_rho,
        resamples=resamples,
        seed=seed,
        axes=axes,
        requests=requests,
        held_out=len(held),
        configurations=rows,
        spearman=rho,
        kendall=tau,
        best=best,
        pairs=pairs,
        same_choice=_mean(units),
        decisions=len(units),
        answer=answer,
        reason=reason,
        notes=notes,
    )


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _best(
    vp: np.ndarray,
    vq: np.ndarray,
    resampled_q: np.ndarray,
    labels: Sequence[str],
    m: Metric,
    level: float,
) -> BestPick:
    """Each side's best configuration, and the model's loss on the proxy's pick."""
    sign = 1.0 if m.higher_is_better else -1.0
    good_p, good_q = np.round(sign * vp, DIGITS), np.round(sign * vq, DIGITS)
    model_best = int(np.argmax(good_q))
    tied = np.flatnonzero(good_p == good_p.max())
    pick = int(tied[np.argmin(good_q[tied])])
    regret = float(good_q[model_best] - good_q[pick])
    ci = _diff(sign * (resampled_q[:, model_best] - resampled_q[:, pick]), level)
    status: Pick = "same" if regret == 0 else "within noise" if ci[0] <= 0 else "differs"
    return BestPick(labels[pick], labels[model_best], status, regret, ci)


def _notes(proxy: Side, model: Side) -> list[str]:
    notes = []
    failed = failed_controls(model)
    if failed:
        notes.append(
            f"{len(failed)} model configuration(s) failed their positive controls "
            f"({', '.join(failed[:3])}): their figures are not the model's"
        )
    if model.type not in MODEL_TYPES:
        notes.append(
            f"the model side is selector {model.selector} of type {model.type}, not a model "
            f"({', '.join(sorted(MODEL_TYPES))})"
        )
    return notes


def _verdict(
    configs: int,
    requests: int,
    failed: int,
    rho: Correlation,
    best: BestPick | None,
    pairs: Sequence[PairOrder],
    min_rho: float,
) -> tuple[Answer, str]:
    """The verdict and its reason, by the rule docs/reports.md states (first match wins).

    ``failed`` counts the model's configurations whose positive controls failed.
    """
    if configs < MIN_CONFIGS:
        return (
            "not enough data",
            f"{configs} configuration(s): ranking needs at least {MIN_CONFIGS}",
        )
    if requests < MIN_REQUESTS:
        return "not enough data", f"{requests} paired requests: at least {MIN_REQUESTS} needed"
    if failed:
        return "not enough data", f"the model failed its positive controls in {failed} cell(s)"
    clear = [p for p in pairs if p.model_clear]
    if not clear:
        return "not enough data", (
            f"the model tells no two configurations apart on {requests} requests"
        )
    if rho.value is None:
        return "no", (
            f"the proxy scores every configuration alike; the model tells {len(clear)} "
            "pair(s) apart"
        )
    assert best is not None
    if best.status == "differs":
        low, high = best.regret_ci
        return "no", (
            f"the proxy's best ({best.proxy}) is {best.regret:.3f} [{low:.3f}, {high:.3f}] "
            f"below the model's best ({best.model}) on the model"
        )
    if rho.ci is None:
        return "not enough data", f"ρ undefined in {rho.undefined} resamples"
    low, high = rho.ci
    text = f"Spearman ρ = {rho.value:.2f} [{low:.2f}, {high:.2f}]"
    if high < min_rho:
        return "no", f"{text}, below {min_rho:g}"
    if low >= min_rho:
        pick = (
            f"same best configuration ({best.model})"
            if best.status == "same"
            else f"the proxy's best ({best.proxy}) within noise of the model's ({best.model})"
        )
        return "yes", f"{text}, lower bound ≥ {min_rho:g}; {pick}"
    return "not enough data", f"{text} straddles {min_rho:g}: more requests would settle it"
