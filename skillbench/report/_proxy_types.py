"""What a proxy check reports (``check_proxy`` computes it; ``_proxy_doc`` renders it)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np

from skillbench.metrics import DIGITS, Metric
from skillbench.report._proxy_sides import CONFIG_FIELDS, Config, Side
from skillbench.types import SIZE_FIELDS, JsonObject

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
    ``model`` the model's (``proxy`` itself when the model scores it best too, tied or not);
    ``regret`` the model's score of its own best minus its score of ``proxy``, in the
    metric's good direction, with its interval.
    """

    proxy: str
    model: str
    status: Pick
    regret: float
    regret_ci: tuple[float, float]
    model_ties: int = 1
    """Configurations the model scores best (more than one: a tie)."""


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
