"""Outcomes, per-cell metrics and the statistics behind them."""

from skillbench.metrics import _retrieval  # noqa: F401  (registers the retrieval metrics)
from skillbench.metrics._cell import (
    PositionStats,
    SkillStats,
    by_position,
    confusion,
    counted_rows,
    not_shown,
    per_skill,
)
from skillbench.metrics._intervals import (
    Interval,
    bootstrap_ratio,
    rate,
    wilson,
    wilson_json,
)
from skillbench.metrics._metric import METRICS, RENAMED, Metric, completed, find_metric
from skillbench.metrics._paired import (
    Bootstrap,
    McNemar,
    Resolution,
    binomial_two_sided,
    binomial_upper_tail,
    is_regression,
    mcnemar_exact,
    paired_bootstrap,
    resolution,
    sign_test,
)
from skillbench.metrics._repeats import (
    DEFAULT_TRIGGER_THRESHOLD,
    RepeatStats,
    RequestRepeats,
    calls_saved,
    group_repeats,
    pass_hat_k,
    repeat_metrics,
    trigger_rates,
)
from skillbench.metrics._retrieval import ndcg, reciprocal_rank
from skillbench.types import INVOKED, OUTCOMES, UNWANTED, Outcome, classify

__all__ = [
    "DEFAULT_TRIGGER_THRESHOLD",
    "INVOKED",
    "METRICS",
    "OUTCOMES",
    "RENAMED",
    "UNWANTED",
    "Bootstrap",
    "Interval",
    "McNemar",
    "Metric",
    "Outcome",
    "PositionStats",
    "RepeatStats",
    "RequestRepeats",
    "Resolution",
    "SkillStats",
    "binomial_two_sided",
    "binomial_upper_tail",
    "bootstrap_ratio",
    "by_position",
    "calls_saved",
    "classify",
    "completed",
    "confusion",
    "counted_rows",
    "find_metric",
    "group_repeats",
    "is_regression",
    "mcnemar_exact",
    "ndcg",
    "not_shown",
    "paired_bootstrap",
    "pass_hat_k",
    "per_skill",
    "rate",
    "reciprocal_rank",
    "repeat_metrics",
    "resolution",
    "sign_test",
    "trigger_rates",
    "wilson",
    "wilson_json",
]
