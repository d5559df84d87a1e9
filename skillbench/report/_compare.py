"""Paired comparison of two runs (or two selections of cells) on the same requests."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.metrics import Bootstrap, McNemar, Metric, find_metric
from skillbench.report._effects import is_baseline
from skillbench.report._pairing import (
    DEFAULT_ALPHA,
    DEFAULT_MAX_DROP,
    PairedStats,
    family_alpha,
    paired_stats,
    read_finished_run,
    request_scores,
    require_same_requests,
    scored_rows,
)
from skillbench.report._run import rows_by_cell
from skillbench.report._select import Selection, pair_cells, select_cells
from skillbench.results import SUMMARY, CellFields, ResultRow, read_run
from skillbench.types import JsonObject, JsonValue


@dataclass(frozen=True)
class Flip:
    """A request whose score changed between A and B (mean over repeats)."""

    request_id: str
    expected: list[str]
    chosen_a: list[str | None]
    chosen_b: list[str | None]
    a: float
    b: float


@dataclass(frozen=True)
class SkillDiff:
    """The metric for requests expecting one skill (``none``: requests needing no skill)."""

    skill: str
    n: int
    a: float
    b: float
    diff: float


@dataclass(frozen=True)
class PairedResult:
    """One pair of cells compared on their shared requests.

    ``stats`` holds the values, the drop (in the metric's bad direction), the paired test (its
    ``worse``/``better`` count requests that moved in the metric's bad/good direction) and the
    bootstrap interval of B - A.
    """

    label: str
    cell_a: CellFields
    cell_b: CellFields
    n_requests: int
    n_decisions: int
    stats: PairedStats
    per_skill: list[SkillDiff] = field(default_factory=list)
    worse: list[Flip] = field(default_factory=list)
    better: list[Flip] = field(default_factory=list)
    held_out: int = 0
    """Requests left out because one side used them to calibrate a selector (train split)."""
    baseline: bool = False
    """Both cells are baselines (oracle, never, random): references, not the change tested."""

    @property
    def flipped(self) -> bool:
        """Some request scored differently in B."""
        return bool(self.worse or self.better)

    @property
    def value_a(self) -> float:
        return self.stats.value_a

    @property
    def value_b(self) -> float:
        return self.stats.value_b

    @property
    def test(self) -> McNemar:
        return self.stats.test

    @property
    def bootstrap(self) -> Bootstrap:
        return self.stats.bootstrap


@dataclass(frozen=True)
class Comparison:
    """Every paired result of ``compare_runs``.

    ``alpha`` is family-wise (Bonferroni over the pairs); ``max_drop`` is the tolerance of the
    regression rule ``check`` uses too.
    """

    a: str
    b: str
    metric: Metric
    alpha: float
    max_drop: float
    results: list[PairedResult]

    @property
    def adjusted_alpha(self) -> float:
        return family_alpha(self.alpha, len(self.results))

    @property
    def p_value(self) -> float:
        """Bonferroni-adjusted smallest two-sided p-value (the raw one for a single pair)."""
        return min(1.0, min(r.stats.test.p_value for r in self.results) * len(self.results))

    def significant(self, r: PairedResult) -> bool:
        """A and B differ, either way (two-sided)."""
        return r.stats.test.p_value < self.adjusted_alpha

    def improved(self, r: PairedResult) -> bool:
        """B is better and the two-sided test says it is not noise."""
        return self.significant(r) and r.stats.drop < 0

    def regressed(self, r: PairedResult) -> bool:
        """B is worse by more than ``max_drop`` and the one-sided test says it is not noise."""
        return r.stats.regressed(self.max_drop, self.adjusted_alpha)

    @property
    def regression(self) -> bool:
        """B regressed in some pair."""
        return any(self.regressed(r) for r in self.results)

    def to_json(self) -> JsonObject:
        pairs: list[JsonValue] = []
        for r in self.results:
            st = r.stats
            pairs.append(
                {
                    "label": r.label,
                    "cell_a": _scalars(r.cell_a),
                    "cell_b": _scalars(r.cell_b),
                    "n_requests": r.n_requests,
                    "n_decisions": r.n_decisions,
                    "value_a": st.value_a,
                    "value_b": st.value_b,
                    "diff": st.bootstrap.diff,
                    "diff_ci": list(st.bootstrap.ci),
                    "drop": st.drop,
                    "resamples": st.bootstrap.resamples,
                    "worse": st.test.worse,
                    "better": st.test.better,
                    "p_value": st.test.p_value,
                    "p_worse": st.test.p_worse,
                    "significant": self.significant(r),
                    "regression": self.regressed(r),
                    "detectable_drop": st.resolution.drop,
                    "detectable_flips": st.resolution.flips,
                    "per_skill": [asdict(s) for s in r.per_skill],
                    "flipped_worse": [asdict(f) for f in r.worse],
                    "flipped_better": [asdict(f) for f in r.better],
                    "held_out": r.held_out,
                    "improved": self.improved(r),
                    "baseline": r.baseline,
                }
            )
        return {
            "a": self.a,
            "b": self.b,
            "metric": self.metric.name,
            "higher_is_better": self.metric.higher_is_better,
            "alpha": self.alpha,
            "alpha_per_pair": self.adjusted_alpha,
            "max_drop": self.max_drop,
            "p_value": self.p_value,
            "regression": self.regression,
            "pairs": pairs,
        }


def _scalars(cell: CellFields) -> JsonObject:
    """The cell's fields as ``summary.json`` has them, less its tables and intervals."""
    return {k: v for k, v in cell.to_json().items() if not isinstance(v, dict | list)}


class _Config(NamedTuple):
    test_alpha: float
    resamples: int
    seed: int


def _train_ids(rows: Sequence[ResultRow]) -> set[str]:
    """Requests a calibrated selector trained on (not in the summary, not comparable)."""
    return {r.request_id for r in rows if r.split == "train"}


def _chosen(rows: Sequence[ResultRow]) -> dict[str, list[str | None]]:
    """What each request's repeats chose, by request id."""
    out: dict[str, list[str | None]] = defaultdict(list)
    for r in rows:
        out[r.request_id].append(r.chosen)
    return out


def _pair(
    label: str,
    cells: tuple[CellFields, CellFields],
    rows: tuple[Sequence[ResultRow], Sequence[ResultRow]],
    m: Metric,
    config: _Config,
) -> PairedResult:
    """Compare two cells on their shared requests.

    ``rows`` are every row of each cell, train split included: requests one side trained
    on are left out of both (the other side's test requests are then a superset).
    """
    train = _train_ids(rows[0]) | _train_ids(rows[1])
    counted = [[r for r in side if r.request_id not in train] for side in rows]
    ra, rb = request_scores(counted[0], m), request_scores(counted[1], m)
    if not ra or not rb:
        side = "A" if not ra else "B"
        raise SkillbenchError(f"{label}: side {side} has no decisions for metric {m.name!r}")
    require_same_requests(label, ra, rb, "compare runs over the same requests")
    everything = set(request_scores(rows[0], m)) | set(request_scores(rows[1], m))
    stats = paired_stats(
        ra, rb, m, alpha=config.test_alpha, resamples=config.resamples, seed=config.seed
    )
    expected = {r.request_id: list(r.expected) for r in counted[0]}
    chosen_a, chosen_b = _chosen(counted[0]), _chosen(counted[1])
    flips: dict[bool, list[Flip]] = {True: [], False: []}
    skills: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for i, sa, sb in zip(stats.ids, stats.a, stats.b, strict=True):
        skills[expected[i][0] if expected[i] else "none"].append((sa, sb))
        if sa != sb:
            flip = Flip(i, expected[i], chosen_a[i], chosen_b[i], sa, sb)
            flips[m.worse(sa, sb) > 0].append(flip)
    per_skill = [
        SkillDiff(
            name,
            len(v),
            sum(x for x, _ in v) / len(v),
            sum(y for _, y in v) / len(v),
            sum(y - x for x, y in v) / len(v),
        )
        for name, v in skills.items()
    ]
    per_skill.sort(key=lambda s: (-m.worse(s.a, s.b), s.skill))
    return PairedResult(
        label=label,
        cell_a=cells[0],
        cell_b=cells[1],
        n_requests=len(stats.ids),
        n_decisions=sum(len(scored_rows(side, m)) for side in counted),
        stats=stats,
        per_skill=per_skill,
        worse=flips[True],
        better=flips[False],
        held_out=len(train & everything),
    )


def metric_for(name: str, run_dir: Path) -> Metric:
    """The metric called ``name``; when it is unknown here but the run recorded it, the
    error names the plugin that computed it."""
    try:
        return find_metric(name)
    except SkillbenchError:
        if not (run_dir / SUMMARY).is_file():
            raise
        recorded = read_run(run_dir, rows=False).summary.recorded_metrics()
        if name not in recorded:
            raise
        plugin = recorded[name] or "a plugin the run does not name"
        raise SkillbenchError(
            f"--metric {name}: computed by {plugin}, which is not installed here; install it "
            "to compare on it (summary.json keeps its recorded values)"
        ) from None


def compare_runs(
    a: Selection,
    b: Selection,
    *,
    metric: str = "accuracy",
    alpha: float = DEFAULT_ALPHA,
    max_drop: float = DEFAULT_MAX_DROP,
    resamples: int = 10_000,
    seed: int = 0,
) -> Comparison:
    """Compare selection B against A on the same requests, cell pair by cell pair.

    Per pair: the exact McNemar (sign) test on requests whose score changed, two-sided ("do
    they differ?") and one-sided ("is B worse?"), a paired bootstrap interval for the
    difference (requests resampled, repeats kept with their request), per-skill differences
    and the flipped requests. Several pairs share ``alpha`` by Bonferroni. Requests a side's
    selector was calibrated on (``split: train``) are left out of both sides, so a calibrated
    selector can be compared with an uncalibrated one on its test split.
    """
    m = metric_for(metric, a.path)
    if not m.per_row:
        raise SkillbenchError(
            f"metric {metric!r} cannot be paired per request; use accuracy, "
            "recall, precision or a rate"
        )
    family_alpha(alpha, 1)  # validates alpha before any file is read
    run_a = read_finished_run(a.path)
    run_b = run_a if b.path.resolve() == a.path.resolve() else read_finished_run(b.path)
    for run, sel in ((run_a, a), (run_b, b)):
        if not run.rows:
            raise SkillbenchError(f"{sel.path}/results.jsonl: missing or empty (needed to pair)")
    pairs = pair_cells(
        select_cells(run_a, a), select_cells(run_b, b), set(a.filters) | set(b.filters)
    )
    rows_a = rows_by_cell(run_a.rows, counted=False)
    rows_b = rows_by_cell(run_b.rows, counted=False)
    config = _Config(family_alpha(alpha, len(pairs)), resamples, seed)
    results = [
        replace(
            _pair(
                label,
                (ca, cb),
                (rows_a.get(ca.key, []), rows_b.get(cb.key, [])),
                m,
                config,
            ),
            baseline=is_baseline(run_a, ca) and is_baseline(run_b, cb),
        )
        for label, ca, cb in pairs
    ]
    return Comparison(str(a), str(b), m, alpha, max_drop, results)
