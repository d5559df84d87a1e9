"""The catalog-size analysis: knee and dilution/shadowing on a hand-made run whose answers are
worked out by hand, then the report section and JSON of a real sweep."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.runs import DEVTOOLS_INPUTS
from synthetic import write_run

from skillbench.replay import load_config, run_experiment
from skillbench.report import size_json, size_lines, write_report
from skillbench.results import Run, read_run

CORRECT = {
    (10, "random"): 20,
    (25, "random"): 16,
    (50, "random"): 12,
    (10, "nearest"): 20,
    (25, "nearest"): 12,
    (50, "nearest"): 6,
}
"""Requests r00… answered right in each cell: the first k of 20 (so losses are nested)."""


def _run(path: Path, *, sizes: bool = True) -> Run:
    key = {
        "catalog": "c",
        "profile": "codebot",
        "budget": None,
        "ordering": "usage",
        "half_life": "7d",
        "selector": "s",
    }
    rows = []
    for (size, mode), right in CORRECT.items():
        cell = {**key, "catalog_size": size, "distractors": mode} if sizes else key
        for i in range(20):
            outcome = "correct_skill" if i < right else "wrong_skill"
            rows.append(
                {**cell, "request_id": f"r{i:02}", "expected": ["a"], "outcome": outcome}
                | {"repeat": 0, "listing_chars": 100, "listing_tokens": 25}
                | {"shown": 4, "latency_ms": 1.0, "visible": True}
            )
        if not sizes:
            break
    return read_run(write_run(path, rows))


def test_knee_is_the_first_size_whose_loss_beats_the_noise(tmp_path: Path) -> None:
    """Random: 4 of 20 requests lost at 25 (one-sided sign test p = 2^-4 = 0.0625, above the
    Bonferroni level 0.05 / 2 = 0.025), 8 lost at 50 (p = 2^-8 ≈ 0.0039): knee at 50, loss
    0.4. Nearest: candidates 25 and 50 as well (10 is the reference size); 8 lost at 25:
    knee at 25."""
    (line,) = size_lines(_run(tmp_path))
    assert line.reference.catalog_size == 10 and line.reference.distractors == "random"
    knees = {k.mode: k for k in line.knees}
    random, nearest = knees["random"], knees["nearest"]
    assert random.size == 50 and random.alpha == pytest.approx(0.025)
    assert random.loss is not None and random.loss.value == pytest.approx(0.4)
    assert random.loss.p_worse == pytest.approx(2**-8)
    assert line.losses["random"][25].p_worse == pytest.approx(2**-4)
    assert not line.losses["random"][25].significant
    assert nearest.size == 25 and nearest.alpha == pytest.approx(0.025)
    assert nearest.loss is not None and nearest.loss.value == pytest.approx(0.4)
    assert line.losses["nearest"][10].value == 0 and line.losses["nearest"][10].p_worse == 1


def test_loss_splits_into_dilution_and_shadowing(tmp_path: Path) -> None:
    """At 25: dilution 1 - 16/20 = 0.2, shadowing 16/20 - 12/20 = 0.2; at 50: dilution
    1 - 12/20 = 0.4, shadowing 12/20 - 6/20 = 0.3. The dilution at 25 is 4 losses in 20: its
    resampled count is Binomial(20, 0.2), whose 2.5% and 97.5% quantiles are 1 and 8 (P(X=0)
    = 0.0115, P(X<=1) = 0.069; P(X<=7) = 0.968, P(X<=8) = 0.990): interval [0.05, 0.40]."""
    (line,) = size_lines(_run(tmp_path))
    split = {s.size: s for s in line.splits}
    assert sorted(split) == [25, 50]
    assert split[25].dilution.value == pytest.approx(0.2)
    assert split[25].shadowing.value == pytest.approx(0.2)
    assert split[50].dilution.value == pytest.approx(0.4)
    assert split[50].shadowing.value == pytest.approx(0.3)
    assert tuple(split[25].dilution.ci) == pytest.approx((0.05, 0.40))
    data = size_json([line])
    assert [k["catalog_size"] for k in data["lines"][0]["knees"]] == [50, 25]
    assert data["lines"][0]["split"][1]["shadowing"]["value"] == pytest.approx(0.3)


def test_a_run_without_sizes_has_no_size_lines(tmp_path: Path) -> None:
    assert size_lines(_run(tmp_path, sizes=False)) == []


def test_report_of_a_sweep_has_its_section_and_json(tmp_path: Path) -> None:
    config = tmp_path / "sweep.yaml"
    config.write_text(
        f"""\
name: sweep
{DEVTOOLS_INPUTS}budgets: [100000]
limit: 200
catalog_sizes: [10, all]
anchors: 4
selectors:
  - {{type: lexical}}
""",
        encoding="utf-8",
    )
    result = run_experiment(load_config(config), output=tmp_path / "run")
    write_report(result.run_dir, formats=["md"])
    text = (result.run_dir / "report.md").read_text()
    assert "## Catalog size" in text and "dilution (random)" in text
    assert "anchors: 4 of the" in text
    assert (result.run_dir / "plots" / "accuracy_vs_catalog_size.png").stat().st_size > 0
    data = json.loads((result.run_dir / "catalog-size.json").read_text())
    (line,) = data["lines"]
    assert {k["distractors"] for k in line["knees"]} == {"random", "nearest"}
    assert {p["catalog_size"] for p in line["points"]} == {10, result.cells[-1].catalog_size}
