"""The CI gate: ``bless`` a run into a baseline file, ``check`` a later run against it.

A metric fails in a cell when it crosses an absolute threshold, or when it is worse than the
baseline by more than the tolerance *and* the one-sided exact paired test on the cell's
requests says the drop is not noise: the same rule, through the same code, as
``skillbench compare --fail-on-regression``. A tolerance finer than one request is
meaningless on its own, so the gate also works out the smallest drop each cell can detect and
says when the tolerance is below it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from skillbench._errors import SkillbenchError
from skillbench.metrics import Metric, Resolution, find_metric, metric_key, rate, summarised
from skillbench.report._baseline import (
    Baseline,
    BaselineCell,
    Bounds,
    baseline_from_run,
    check_bounds,
    load_baseline,
    merge_bounds,
    request_rows,
    write_baseline,
)
from skillbench.report._pairing import (
    DEFAULT_ALPHA,
    DEFAULT_MAX_DROP,
    PairedStats,
    count,
    family_alpha,
    paired_stats,
    read_finished_run,
    request_scores,
    require_same_requests,
)
from skillbench.report._run import cell_label, varying_keys
from skillbench.types import CellKey

Status = Literal["pass", "fail", "skip"]


@dataclass(frozen=True)
class Thresholds:
    """What ``check`` gates on.

    Attributes:
        metrics: metrics gated on a drop from the baseline.
        max_drop: the tolerance: the largest worsening let through however significant.
        minimum: absolute floors (fail when the value is below); override the baseline's.
        maximum: absolute ceilings (fail when the value is above); override the baseline's.
        alpha: family-wise significance level, split (Bonferroni) over the drop tests.
    """

    metrics: Sequence[str] = ("accuracy", "false_invocation_rate")
    max_drop: float = DEFAULT_MAX_DROP
    minimum: Mapping[str, float] = field(default_factory=dict)
    maximum: Mapping[str, float] = field(default_factory=dict)
    alpha: float = DEFAULT_ALPHA

    def bounds(self, baseline: Bounds) -> dict[str, dict[str, float]]:
        """The baseline's thresholds with these on top (a flag beats the checked-in file)."""
        return merge_bounds(baseline, self.minimum, self.maximum)


@dataclass(frozen=True)
class GateResult:
    """One cell × metric verdict.

    ``message`` names the cell, the metric, both values and every reason; ``note`` is set when
    the metric passed although it moved past the tolerance (the drop was within noise).
    """

    cell: str
    metric: str
    status: Status
    message: str
    note: str | None = None


@dataclass(frozen=True)
class CoarsestCell:
    """The cell whose resolution is worst for one metric: what the suite can promise."""

    metric: str
    cell: str
    resolution: Resolution
    higher_is_better: bool

    @property
    def change(self) -> str:
        """What worse means for the metric: ``drop`` or ``rise``."""
        return "drop" if self.higher_is_better else "rise"


@dataclass(frozen=True)
class GateReport:
    """Everything ``check`` found.

    Attributes:
        results: one verdict per cell and gated metric.
        alpha: the per-test level: the family-wise one split over ``tests`` (Bonferroni).
        tests: paired tests run (cells × drop-gated metrics that have requests to pair).
        max_drop: the tolerance.
        coarsest: per drop-gated metric, the cell with the coarsest resolution.
    """

    results: list[GateResult]
    alpha: float
    tests: int
    max_drop: float
    coarsest: list[CoarsestCell]

    @property
    def failed(self) -> list[GateResult]:
        return [r for r in self.results if r.status == "fail"]

    def warnings(self) -> list[str]:
        """A warning per metric whose tolerance is finer than the suite can see."""
        out = []
        for c in self.coarsest:
            res = c.resolution
            if res.drop is None:
                out.append(
                    f"{c.metric} (cell {c.cell}): no {c.change} is detectable on "
                    f"{res.requests} requests at α = {self.alpha:.3g} (even all of them getting "
                    f"worse gives p = 2^-{res.requests}); only an absolute threshold can fail "
                    "it: add requests"
                )
            elif self.max_drop < res.drop:
                out.append(
                    f"--max-drop {self.max_drop:g} is below the smallest {c.change} this suite "
                    f"can detect for {c.metric}: {res.drop:.3f} ({res.flips} of {res.requests} "
                    f"requests, cell {c.cell}, one-sided exact McNemar at α = {self.alpha:.3g}); "
                    f"a smaller {c.change} passes as noise: add requests to tighten the gate"
                )
        return out


def bless_run(
    run_dir: str | Path,
    baseline: str | Path,
    *,
    minimum: Mapping[str, float] | None = None,
    maximum: Mapping[str, float] | None = None,
) -> Path:
    """Write ``baseline`` (JSON) from a run directory, recording optional absolute thresholds
    that every later ``check`` enforces."""
    bounds = check_bounds(merge_bounds({}, minimum or {}, maximum or {}), "--min/--max")
    return write_baseline(baseline_from_run(read_finished_run(run_dir), bounds), baseline)


Cells = dict[CellKey, BaselineCell]


def _cells_match(
    base: Baseline, current: Baseline, run_dir: str | Path, baseline: str | Path
) -> tuple[Cells, Cells]:
    """Baseline and run cells by key; a different grid is an error, not a partial gate."""
    bcells = {c.key: c for c in base.cells}
    ccells = {c.key: c for c in current.cells}
    if bcells.keys() != ccells.keys():
        keys = varying_keys([*base.cells, *current.cells])
        missing = [cell_label(bcells[k], keys) for k in bcells.keys() - ccells.keys()]
        extra = [cell_label(ccells[k], keys) for k in ccells.keys() - bcells.keys()]
        parts = [
            f"{what}: {'; '.join(sorted(cells)[:5])}"
            for what, cells in (("missing from the run", missing), ("not in the baseline", extra))
            if cells
        ]
        raise SkillbenchError(
            f"{run_dir} and {baseline} have different cells ("
            + "; ".join(parts)
            + "); re-bless if the grid changed on purpose"
        )
    return bcells, ccells


def check_run(
    run_dir: str | Path, baseline: str | Path, thresholds: Thresholds = Thresholds()
) -> GateReport:
    """Gate a run against a baseline; one result per cell and gated metric.

    Raises:
        SkillbenchError: missing or unfinished runs, bad baselines, unknown metrics, metrics
            with no per-request form gated on a drop, or cells/requests that differ from the
            baseline (a changed suite needs a re-bless, not a silent pass).
    """
    relative = {metric_key(name): find_metric(name) for name in thresholds.metrics}
    for m in relative.values():
        if not m.per_row:
            raise SkillbenchError(
                f"metric {m.name!r} has no per-request form, so no paired test: gate it with "
                f"an absolute threshold (--min/--max {m.name}=X) instead"
            )
    if thresholds.max_drop < 0:
        raise SkillbenchError(f"--max-drop must be >= 0, got {thresholds.max_drop}")
    check_bounds(merge_bounds({}, thresholds.minimum, thresholds.maximum), "--min/--max")
    base = load_baseline(baseline)
    bounds = check_bounds(thresholds.bounds(base.thresholds or {}), "--min/--max")
    current = baseline_from_run(read_finished_run(run_dir))
    bcells, ccells = _cells_match(base, current, run_dir, baseline)
    keys = varying_keys(base.cells)
    labels = {key: cell_label(bcell, keys) for key, bcell in bcells.items()}
    scores = {
        (key, name): _scores(m, labels[key], bcell, ccells[key])
        for key, bcell in bcells.items()
        for name, m in relative.items()
    }
    tests = sum(s is not None for s in scores.values())
    alpha = family_alpha(thresholds.alpha, tests)
    gated = {**relative, **{n: find_metric(n) for n in bounds if n not in relative}}
    results: list[GateResult] = []
    coarsest: dict[str, CoarsestCell] = {}
    for key, bcell in bcells.items():
        label = labels[key]
        for name, m in gated.items():
            pair = scores.get((key, name))
            stats = None if pair is None else paired_stats(*pair, m, alpha=alpha)
            if stats is not None:
                worst = coarsest.get(m.name)
                if worst is None or _coarser(stats.resolution, worst.resolution):
                    coarsest[m.name] = CoarsestCell(
                        m.name, label, stats.resolution, m.higher_is_better
                    )
            gate = _Gate(m, label, thresholds.max_drop, alpha, bounds.get(name, {}))
            results.append(gate.judge(bcell, ccells[key], stats))
    return GateReport(results, alpha, tests, thresholds.max_drop, list(coarsest.values()))


def _coarser(a: Resolution, b: Resolution) -> bool:
    if a.drop is None or b.drop is None:
        return a.drop is None and b.drop is not None
    return a.drop > b.drop


def _scores(
    m: Metric, label: str, bcell: BaselineCell, ccell: BaselineCell
) -> tuple[dict[str, float], dict[str, float]] | None:
    """Baseline and run per-request scores of one cell and metric; None when neither side has
    a request the metric counts (e.g. a false-invocation rate with no negative requests)."""
    a, b = request_scores(request_rows(bcell), m), request_scores(request_rows(ccell), m)
    if not a and not b:
        return None
    require_same_requests(
        f"{label} {m.name}",
        a,
        b,
        "the run and the baseline scored different requests: re-bless if the suite changed",
    )
    return a, b


@dataclass(frozen=True)
class _Gate:
    m: Metric
    label: str
    max_drop: float
    alpha: float
    bound: Mapping[str, float]

    def judge(
        self, bcell: BaselineCell, ccell: BaselineCell, stats: PairedStats | None
    ) -> GateResult:
        name = self.m.name
        bv, cv = _value(self.m, bcell), _value(self.m, ccell)
        if cv is None and stats is None:
            return GateResult(self.label, name, "skip", f"{self.label} {name}: no value")
        head = f"{self.label} {name}: {_fmt(cv)} vs baseline {_fmt(bv)}"
        if stats is not None:
            ci = stats.bootstrap.ci
            head += (
                f" ({len(stats.ids)} requests; B − A {stats.bootstrap.diff:+.3f} "
                f"[{ci.low:+.3f}, {ci.high:+.3f}])"
            )
        reasons = []
        if cv is not None and "min" in self.bound and cv < self.bound["min"]:
            reasons.append(f"below the minimum {self.bound['min']:g}")
        if cv is not None and "max" in self.bound and cv > self.bound["max"]:
            reasons.append(f"above the maximum {self.bound['max']:g}")
        note = None
        if stats is not None and stats.drop > self.max_drop + 1e-12:
            t = stats.test
            test = (
                f"{count(t.worse, 'request')} worse, {t.better} better, "
                f"one-sided p = {t.p_worse:.3g}"
            )
            word = "dropped" if self.m.higher_is_better else "rose"
            moved = f"{word} by {stats.drop:.3f} > max-drop {self.max_drop:g}"
            if stats.regressed(self.max_drop, self.alpha):
                reasons.append(
                    f"{moved}, not noise: {test} < α = {self.alpha:.3g} (paired exact McNemar)"
                )
            else:
                note = f"{moved}, but within noise: {test} ≥ α = {self.alpha:.3g}"
        if reasons:
            return GateResult(self.label, name, "fail", f"{head}: " + "; ".join(reasons), note)
        return GateResult(self.label, name, "pass", head + (f": {note}" if note else ""), note)


def _value(m: Metric, cell: BaselineCell) -> float | None:
    """The cell's value of ``m``: as blessed, or, for a metric summaries do not carry, from
    the cell's requests (the per-decision form the paired test reads too)."""
    if not summarised(m) and m.per_row:
        return rate(*m.counts(request_rows(cell)))
    entry = cell.metrics.get(m.name)
    return entry.value if entry is not None else None


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{float(value):.3f}"


def write_junit(report: GateReport, path: str | Path) -> Path:
    """JUnit XML: one testcase per cell × metric, so CI systems list them natively; the
    resolution warnings go in the suite's ``system-err``."""
    import xml.etree.ElementTree as ET

    results = report.results
    fails = len(report.failed)
    skips = sum(r.status == "skip" for r in results)
    suites = ET.Element(
        "testsuites", name="skillbench check", tests=str(len(results)), failures=str(fails)
    )
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="skillbench check",
        tests=str(len(results)),
        failures=str(fails),
        errors="0",
        skipped=str(skips),
    )
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=f"skillbench.{r.cell}", name=r.metric)
        if r.status == "fail":
            ET.SubElement(case, "failure", message=r.message, type="regression").text = r.message
        elif r.status == "skip":
            ET.SubElement(case, "skipped", message=r.message)
        else:
            ET.SubElement(case, "system-out").text = r.message
    warnings = report.warnings()
    if warnings:
        ET.SubElement(suite, "system-err").text = "\n".join(f"warning: {w}" for w in warnings)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suites).write(out, encoding="utf-8", xml_declaration=True)
    return out
