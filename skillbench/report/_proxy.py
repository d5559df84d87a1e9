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

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

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
from skillbench.report._proxy_types import (
    DEFAULT_MIN_RHO,
    MIN_CONFIGS,
    MIN_REQUESTS,
    UNDEFINED_SHARE,
    Answer,
    BestPick,
    Configuration,
    Correlation,
    PairOrder,
    Pick,
    ProxyCheck,
)
from skillbench.report._run import fmt_value, sort_value
from skillbench.report._select import Selection
from skillbench.results import MODEL_TYPES, ResultRow
from skillbench.types import UNANSWERED


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
    configs = sorted(p.cells, key=lambda c: tuple(map(sort_value, c)))
    axes = [f for i, f in enumerate(CONFIG_FIELDS) if len({fmt_value(c[i]) for c in configs}) > 1]
    labels = [config_label(c, axes) for c in configs]
    scores = _scores(p, q, configs, m)
    empty = [labels[k] for k in range(len(configs)) if not scores.present[k].any()]
    if empty:
        raise SkillbenchError(
            f"no request answered on both sides in {', '.join(empty[:3])} (metric {m.name})"
        )
    a, b, present, same = scores.a, scores.b, scores.present, scores.same
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
    from scipy.stats import rankdata  # scipy.stats takes ~1 s to import: only when ranking

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
        held_out=scores.held_out,
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


class _Scores(NamedTuple):
    """Per configuration (rows) and request (columns): each side's score, where both have
    one, and per configuration the same-decision share of each request."""

    a: np.ndarray
    b: np.ndarray
    present: np.ndarray
    same: list[list[float]]
    held_out: int


def _scores(p: Side, q: Side, configs: Sequence[Config], m: Metric) -> _Scores:
    """Both sides' request scores, requests either side calibrated on left out."""
    rows_p, rows_q = p.rows(), q.rows()
    held = train_ids(rows_p.values()) | train_ids(rows_q.values())
    maps: list[tuple[Mapping[str, float], Mapping[str, float]]] = []
    same = []
    for c in configs:
        kept_p = [r for r in rows_p[c] if r.request_id not in held]
        kept_q = [r for r in rows_q[c] if r.request_id not in held]
        maps.append((request_scores(kept_p, m), request_scores(kept_q, m)))
        same.append(_same_choice(kept_p, kept_q))
    ids = sorted({i for sp, sq in maps for i in (*sp, *sq)})
    return _Scores(
        np.array([[sp.get(i, 0.0) for i in ids] for sp, _ in maps]),
        np.array([[sq.get(i, 0.0) for i in ids] for _, sq in maps]),
        np.array([[i in sp and i in sq for i in ids] for sp, sq in maps]),
        same,
        len(held),
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
    tied = np.flatnonzero(good_p == good_p.max())
    pick = int(tied[np.argmin(good_q[tied])])
    model_tied = np.flatnonzero(good_q == good_q.max())
    model_best = pick if pick in model_tied else int(model_tied[0])
    regret = float(good_q[model_best] - good_q[pick])
    ci = _diff(sign * (resampled_q[:, model_best] - resampled_q[:, pick]), level)
    status: Pick = "same" if regret == 0 else "within noise" if ci[0] <= 0 else "differs"
    return BestPick(labels[pick], labels[model_best], status, regret, ci, len(model_tied))


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
