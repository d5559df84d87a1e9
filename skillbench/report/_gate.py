"""The CI gate: ``bless`` a run into a baseline file, ``check`` a later run against it.

A gated metric fails when it crosses an absolute floor (``--min``/``--max``), drops by more than
``--max-drop`` (point estimates), or drops *significantly*. Significance is tested per cell and
metric, Bonferroni-corrected over all gated tests so a large grid does not raise false alarms:
with per-request data on both sides (the usual case: same requests) the exact paired McNemar
test; otherwise Newcombe's interval for the difference from the two Wilson intervals,
recomputed from the kept counts at the corrected level.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from statistics import NormalDist
from typing import Any, Literal

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench.metrics import newcombe_diff, sign_test, wilson
from skillbench.report._measures import MEASURES, Measure, measure
from skillbench.report._run import CELL_KEYS, Run, cell_key, cell_label, load_run, varying_keys

FORMAT_VERSION = 1
Status = Literal["pass", "fail", "skip"]


def _requests(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per request the facts every per-row metric needs: outcomes, positive, visibility."""
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        entry = out.setdefault(
            str(r.get("request_id")),
            {"positive": bool(r.get("expected")), "outcomes": [], "visible": []},
        )
        entry["outcomes"].append(r.get("outcome"))
        entry["visible"].append(r.get("visible"))
    return out


def _pseudo_rows(entry: Mapping[str, Any]) -> list[dict[str, Any]]:
    expected = ["?"] if entry["positive"] else []
    return [
        {"outcome": o, "expected": expected, "visible": v}
        for o, v in zip(entry["outcomes"], entry["visible"], strict=True)
    ]


def baseline_from_run(run: Run) -> dict[str, Any]:
    """The baseline document: metric values, intervals, denominators and per-request outcomes."""
    by_cell = run.rows_by_cell()
    cells = []
    for cell in run.cells:
        rows = by_cell.get(cell_key(cell), [])
        metrics = {}
        for m in MEASURES.values():
            if m.name in cell:
                n = m.counts(rows)[1] if rows and m.per_row else cell.get("n")
                metrics[m.name] = {"value": cell[m.name], "ci": cell.get(m.name + "_ci"), "n": n}
        entry = {k: cell.get(k) for k in CELL_KEYS}
        entry.update(metrics=metrics, requests=_requests(rows))
        cells.append(entry)
    return {
        "skillbench_baseline": FORMAT_VERSION,
        "run": run.name,
        "config_hash": run.summary.get("config_hash"),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "cells": cells,
    }


def bless_run(run_dir: str | Path, baseline: str | Path) -> Path:
    """Write ``baseline`` (JSON) from a run directory; returns its path."""
    doc = baseline_from_run(load_run(run_dir))
    path = Path(baseline)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return path


def load_baseline(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SkillbenchError(
            f"{p}: baseline not found (create it with `skillbench bless`)"
        ) from None
    except json.JSONDecodeError as exc:
        raise InputError(Location(str(p), exc.lineno), f"invalid JSON: {exc.msg}") from None
    if not isinstance(doc, dict) or doc.get("skillbench_baseline") != FORMAT_VERSION:
        raise InputError(
            Location(str(p), field="skillbench_baseline"),
            f"not a skillbench baseline (version {FORMAT_VERSION} expected)",
        )
    return doc


@dataclass(frozen=True)
class GateResult:
    """One cell × metric verdict; ``message`` names the cell, metric, values and intervals."""

    cell: str
    metric: str
    status: Status
    message: str


@dataclass(frozen=True)
class Thresholds:
    """What ``check`` gates on.

    Attributes:
        metrics: metric names to gate.
        max_drop: largest tolerated worsening of the point estimate (absolute, e.g. 0.02).
        minimum: absolute floors (fail when the value is below).
        maximum: absolute ceilings (fail when the value is above).
        alpha: family-wise significance level, Bonferroni-split over all tests.
    """

    metrics: Sequence[str] = ("accuracy", "false_invocation_rate")
    max_drop: float = 0.02
    minimum: Mapping[str, float] | None = None
    maximum: Mapping[str, float] | None = None
    alpha: float = 0.05


def _fmt(value: float, ci: Any) -> str:
    if ci and None not in ci:
        return f"{value:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"
    return f"{value:.3f}"


def _significant(
    m: Measure, base: Mapping[str, Any], cur: Mapping[str, Any], alpha: float
) -> str | None:
    """Why the drop from ``base`` to ``cur`` is significant, or None when it is not."""
    breq, creq = base.get("requests") or {}, cur.get("requests") or {}
    if m.per_row and breq and breq.keys() == creq.keys():
        pairs = [(m.counts(_pseudo_rows(breq[i])), m.counts(_pseudo_rows(creq[i]))) for i in breq]
        pairs = [(old, new) for old, new in pairs if old[1] and new[1]]
        if not pairs:
            return None
        test = sign_test([h / n for (h, n), _ in pairs], [h / n for _, (h, n) in pairs])
        worse, better = (
            (test.worse, test.better) if m.higher_is_better else (test.better, test.worse)
        )
        if test.p_value < alpha and worse > better:
            return (
                f"significantly worse: {worse} requests worse, {better} better, "
                f"p = {test.p_value:.3g} (paired exact McNemar, α = {alpha:.3g})"
            )
        return None
    b, c = base["metrics"][m.name], cur["metrics"][m.name]
    if not b.get("n") or not c.get("n"):
        return None
    z = NormalDist().inv_cdf(1 - alpha / 2)
    wb = wilson(round(b["value"] * b["n"]), b["n"], z)
    wc = wilson(round(c["value"] * c["n"]), c["n"], z)
    low, high = newcombe_diff(b["value"], wb, c["value"], wc)
    bad = high < 0 if m.higher_is_better else low > 0
    if bad:
        return (
            f"significantly worse: difference interval [{low:+.3f}, {high:+.3f}] excludes 0 "
            f"(unpaired Newcombe, α = {alpha:.3g})"
        )
    return None


def check_run(
    run_dir: str | Path, baseline: str | Path, thresholds: Thresholds = Thresholds()
) -> list[GateResult]:
    """Gate a run against a baseline; one result per cell and metric.

    Raises:
        SkillbenchError: missing files, unknown metrics, or cells that differ from the baseline.
    """
    for name in [*thresholds.metrics, *(thresholds.minimum or {}), *(thresholds.maximum or {})]:
        measure(name)
    base = load_baseline(baseline)
    current = baseline_from_run(load_run(run_dir))
    bcells = {cell_key(c): c for c in base["cells"]}
    ccells = {cell_key(c): c for c in current["cells"]}
    if bcells.keys() != ccells.keys():
        keys = varying_keys([*base["cells"], *current["cells"]])
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
    keys = varying_keys(base["cells"])
    tests = len(bcells) * len(thresholds.metrics)
    alpha = thresholds.alpha / max(tests, 1)
    results = []
    for key, bcell in bcells.items():
        ccell, label = ccells[key], cell_label(bcell, keys)
        for name in thresholds.metrics:
            results.append(_gate_one(MEASURES[name], label, bcell, ccell, thresholds, alpha))
    return results


def _gate_one(
    m: Measure,
    label: str,
    bcell: Mapping[str, Any],
    ccell: Mapping[str, Any],
    t: Thresholds,
    alpha: float,
) -> GateResult:
    b, c = bcell["metrics"].get(m.name), ccell["metrics"].get(m.name)
    if not b or not c or b.get("value") is None or c.get("value") is None:
        return GateResult(label, m.name, "skip", f"{label} {m.name}: no value (no such decisions)")
    bv, cv = float(b["value"]), float(c["value"])
    head = (
        f"{label} {m.name}: {_fmt(cv, c.get('ci'))} (n={c.get('n')}) vs baseline "
        f"{_fmt(bv, b.get('ci'))} (n={b.get('n')})"
    )
    reasons = []
    floor = (t.minimum or {}).get(m.name)
    if floor is not None and cv < floor:
        reasons.append(f"below the minimum {floor:g}")
    ceiling = (t.maximum or {}).get(m.name)
    if ceiling is not None and cv > ceiling:
        reasons.append(f"above the maximum {ceiling:g}")
    drop = m.worse(bv, cv)
    if drop > t.max_drop + 1e-12:
        word = "dropped" if m.higher_is_better else "rose"
        reasons.append(f"{word} by {drop:.3f} > max-drop {t.max_drop:g}")
    if drop > 0:
        why = _significant(m, bcell, ccell, alpha)
        if why:
            reasons.append(why)
    if reasons:
        return GateResult(label, m.name, "fail", f"{head}: " + "; ".join(reasons))
    return GateResult(label, m.name, "pass", head)


def write_junit(results: Sequence[GateResult], path: str | Path) -> Path:
    """JUnit XML: one testcase per cell × metric, so CI systems list them natively."""
    import xml.etree.ElementTree as ET

    fails = sum(r.status == "fail" for r in results)
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
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suites).write(out, encoding="utf-8", xml_declaration=True)
    return out
