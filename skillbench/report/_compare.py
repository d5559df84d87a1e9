"""Paired comparison of two runs (or two selections of cells) on the same requests."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.metrics import Bootstrap, McNemar, paired_bootstrap, sign_test
from skillbench.report._measures import Measure, measure
from skillbench.report._run import CellKey, Row, Run, cell_key, load_run
from skillbench.report._select import Selection, pair_cells, select_cells


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

    ``diff`` and its interval are in the metric's units (B - A); ``test.worse``/``test.better``
    count requests that moved in the metric's bad/good direction.
    """

    label: str
    cell_a: Mapping[str, Any]
    cell_b: Mapping[str, Any]
    n_requests: int
    n_decisions: int
    value_a: float
    value_b: float
    bootstrap: Bootstrap
    test: McNemar
    per_skill: list[SkillDiff] = field(default_factory=list)
    worse: list[Flip] = field(default_factory=list)
    better: list[Flip] = field(default_factory=list)
    held_out: int = 0
    """Requests left out because one side used them to calibrate a selector (train split)."""


@dataclass(frozen=True)
class Comparison:
    """Every paired result of ``compare_runs``; ``alpha`` is family-wise (Bonferroni)."""

    a: str
    b: str
    metric: Measure
    alpha: float
    results: list[PairedResult]

    @property
    def adjusted_alpha(self) -> float:
        return self.alpha / max(len(self.results), 1)

    @property
    def p_value(self) -> float:
        """Bonferroni-adjusted smallest p-value (the raw one for a single pair)."""
        return min(1.0, min(r.test.p_value for r in self.results) * len(self.results))

    def significant(self, r: PairedResult) -> bool:
        return r.test.p_value < self.adjusted_alpha

    def regressed(self, r: PairedResult) -> bool:
        return self.significant(r) and r.test.worse > r.test.better

    @property
    def regression(self) -> bool:
        """B is significantly worse than A in some pair."""
        return any(self.regressed(r) for r in self.results)

    def to_json(self) -> dict[str, Any]:
        pairs = []
        for r in self.results:
            pairs.append(
                {
                    "label": r.label,
                    "cell_a": {k: v for k, v in r.cell_a.items() if not isinstance(v, dict | list)},
                    "cell_b": {k: v for k, v in r.cell_b.items() if not isinstance(v, dict | list)},
                    "n_requests": r.n_requests,
                    "n_decisions": r.n_decisions,
                    "value_a": r.value_a,
                    "value_b": r.value_b,
                    "diff": r.bootstrap.diff,
                    "diff_ci": list(r.bootstrap.ci),
                    "resamples": r.bootstrap.resamples,
                    "worse": r.test.worse,
                    "better": r.test.better,
                    "p_value": r.test.p_value,
                    "significant": self.significant(r),
                    "regression": self.regressed(r),
                    "per_skill": [asdict(s) for s in r.per_skill],
                    "flipped_worse": [asdict(f) for f in r.worse],
                    "flipped_better": [asdict(f) for f in r.better],
                    "held_out": r.held_out,
                }
            )
        return {
            "a": self.a,
            "b": self.b,
            "metric": self.metric.name,
            "higher_is_better": self.metric.higher_is_better,
            "alpha": self.alpha,
            "p_value": self.p_value,
            "regression": self.regression,
            "pairs": pairs,
        }


def _by_request(rows: Sequence[Row], m: Measure) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        if m.applies(row):  # type: ignore[misc]
            out[str(row.get("request_id"))].append(row)
    return out


def _score(rows: Sequence[Row], m: Measure) -> float:
    return sum(bool(m.hit(r)) for r in rows) / len(rows)  # type: ignore[misc]


def _train_ids(rows: Sequence[Row]) -> set[str]:
    """Requests a calibrated selector trained on (not in the summary, not comparable)."""
    return {str(r.get("request_id")) for r in rows if r.get("split") == "train"}


def _pair(
    label: str,
    cells: tuple[Mapping[str, Any], Mapping[str, Any]],
    rows: tuple[Sequence[Row], Sequence[Row]],
    m: Measure,
    resamples: int,
    seed: int,
) -> PairedResult:
    """Compare two cells on their shared requests.

    ``rows`` are every row of each cell, train split included: requests one side trained
    on are left out of both (the other side's test requests are then a superset).
    """
    train = _train_ids(rows[0]) | _train_ids(rows[1])
    counted = [[r for r in side if str(r.get("request_id")) not in train] for side in rows]
    ra, rb = _by_request(counted[0], m), _by_request(counted[1], m)
    if not ra or not rb:
        side = "A" if not ra else "B"
        raise SkillbenchError(f"{label}: side {side} has no decisions for metric {m.name!r}")
    if ra.keys() != rb.keys():
        only_a, only_b = sorted(ra.keys() - rb.keys()), sorted(rb.keys() - ra.keys())
        parts = [
            f"{len(ids)} only in {side} ({', '.join(ids[:5])}{', …' if len(ids) > 5 else ''})"
            for side, ids in (("A", only_a), ("B", only_b))
            if ids
        ]
        raise SkillbenchError(
            f"{label}: unpaired requests: {'; '.join(parts)}; compare runs over the same requests"
        )
    held_out = len(train & (set(_by_request(rows[0], m)) | set(_by_request(rows[1], m))))
    ids = sorted(ra)
    a = [_score(ra[i], m) for i in ids]
    b = [_score(rb[i], m) for i in ids]
    test = sign_test(a, b)
    if not m.higher_is_better:
        test = McNemar(test.better, test.worse, test.p_value)
    flips: dict[bool, list[Flip]] = {True: [], False: []}
    skills: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for i, sa, sb in zip(ids, a, b, strict=True):
        expected = list(ra[i][0].get("expected") or [])
        skills[expected[0] if expected else "none"].append((sa, sb))
        if sa != sb:
            flip = Flip(
                i,
                expected,
                [r.get("chosen") for r in ra[i]],
                [r.get("chosen") for r in rb[i]],
                sa,
                sb,
            )
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
        n_requests=len(ids),
        n_decisions=sum(len(v) for v in ra.values()) + sum(len(v) for v in rb.values()),
        value_a=sum(a) / len(a),
        value_b=sum(b) / len(b),
        bootstrap=paired_bootstrap(a, b, resamples=resamples, seed=seed),
        test=test,
        per_skill=per_skill,
        worse=flips[True],
        better=flips[False],
        held_out=held_out,
    )


def _all_rows(run: Run) -> dict[CellKey, list[Row]]:
    out: dict[CellKey, list[Row]] = defaultdict(list)
    for row in run.rows:
        out[cell_key(row)].append(row)
    return out


def compare_runs(
    a: Selection,
    b: Selection,
    *,
    metric: str = "accuracy",
    alpha: float = 0.05,
    resamples: int = 10_000,
    seed: int = 0,
) -> Comparison:
    """Compare selection B against A on the same requests, cell pair by cell pair.

    Per pair: the exact McNemar (sign) test on requests whose score changed, a paired bootstrap
    interval for the difference (requests resampled, repeats kept with their request), per-skill
    differences and the flipped requests. Several pairs share ``alpha`` by Bonferroni.
    Requests a side's selector was calibrated on (``split: train``) are left out of both sides,
    so a calibrated selector can be compared with an uncalibrated one on its test split.
    """
    m = measure(metric)
    if not m.per_row:
        raise SkillbenchError(
            f"metric {metric!r} cannot be paired per request; use accuracy, "
            "recall, precision or a rate"
        )
    if not 0 < alpha < 1:
        raise SkillbenchError(f"alpha must be in (0, 1), got {alpha}")
    run_a = load_run(a.path)
    run_b = run_a if b.path.resolve() == a.path.resolve() else load_run(b.path)
    for run, sel in ((run_a, a), (run_b, b)):
        if not run.rows:
            raise SkillbenchError(f"{sel.path}/results.jsonl: missing or empty (needed to pair)")
    pairs = pair_cells(
        select_cells(run_a, a), select_cells(run_b, b), set(a.filters) | set(b.filters)
    )
    rows_a, rows_b = _all_rows(run_a), _all_rows(run_b)
    results = [
        _pair(
            label,
            (ca, cb),
            (rows_a.get(cell_key(ca), []), rows_b.get(cell_key(cb), [])),
            m,
            resamples,
            seed,
        )
        for label, ca, cb in pairs
    ]
    return Comparison(str(a), str(b), m, alpha, results)
