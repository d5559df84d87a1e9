"""``skillbench check`` on engine-written runs of a 30-request suite.

Expected p-values come from scipy's exact binomial test; resolutions by hand (one-sided,
all flips in one direction: p = 2^-k).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from gate_suite import Replay, replay, write_requests
from scipy.stats import binomtest

from skillbench.cli import main


def _bless(run: Path, tmp_path: Path, *flags: str) -> Path:
    baseline = tmp_path / "ci" / "baseline.json"
    assert main(["bless", str(run), str(baseline), "-q", *flags]) == 0
    return baseline


def _check(capsys, run: Path, baseline: Path, *flags: str) -> tuple[int, str, str]:
    code = main(["check", str(run), "--baseline", str(baseline), *flags])
    out, err = capsys.readouterr()
    return code, out, err


def test_one_flipped_request_of_30_passes_with_a_resolution_warning(
    suite: Replay, tmp_path: Path, capsys
) -> None:
    baseline = _bless(suite(), tmp_path)
    code, out, err = _check(capsys, suite(disabled={7}), baseline)
    assert code == 0
    p = binomtest(1, 1, 0.5, alternative="greater").pvalue  # 0.5
    # 5 requests all going the bad way: 2^-5 = 0.031 < 0.05; 4 would give 0.0625
    assert (
        "warning: --max-drop 0.02 is below the smallest drop this suite can detect for "
        "accuracy: 0.167 (5 of 30 requests, cell all, one-sided exact McNemar at α = 0.05)"
    ) in err
    assert "FAIL" not in err
    assert "PASS all accuracy: 0.967 vs baseline 1.000 (30 requests; B − A -0.033 " in out
    assert (
        f"dropped by 0.033 > max-drop 0.02, but within noise: 1 request worse, 0 better, "
        f"one-sided p = {p:.3g} ≥ α = 0.05"
    ) in out
    # no negative requests: the false-invocation rate has nothing to gate
    assert out.rstrip().endswith("1 passed, 0 failed, 1 skipped (2 checks)")


def test_twenty_flipped_requests_of_30_fail_with_100(suite: Replay, tmp_path: Path, capsys) -> None:
    baseline = _bless(suite(), tmp_path)
    junit = tmp_path / "junit.xml"
    code, out, err = _check(capsys, suite(disabled=range(20)), baseline, "--junit", str(junit))
    assert code == 100
    p = binomtest(20, 20, 0.5, alternative="greater").pvalue  # 2^-20
    assert ("FAIL all accuracy: 0.333 vs baseline 1.000 (30 requests; B − A -0.667 ") in err
    assert (
        f"dropped by 0.667 > max-drop 0.02, not noise: 20 requests worse, 0 better, "
        f"one-sided p = {p:.3g} < α = 0.05 (paired exact McNemar)"
    ) in err
    assert "0 passed, 1 failed, 1 skipped (2 checks)" in out
    suite_el = ET.parse(junit).getroot().find("testsuite")
    assert suite_el is not None and suite_el.get("failures") == "1"
    failure = suite_el.find("testcase[@name='accuracy']/failure")
    assert failure is not None and "not noise" in (failure.get("message") or "")
    assert "below the smallest drop" in (suite_el.findtext("system-err") or "")


def test_tolerance_binds_above_the_resolution(suite: Replay, tmp_path: Path, capsys) -> None:
    """Six requests worse is significant (2^-6 < 0.05) but a 0.2 drop is within --max-drop 0.25."""
    baseline = _bless(suite(), tmp_path)
    run = suite(disabled=range(6))
    assert _check(capsys, run, baseline, "--max-drop", "0.25")[0] == 0
    code, _out, err = _check(capsys, run, baseline, "--max-drop", "0.18")
    assert code == 100 and "6 requests worse" in err
    assert "warning" not in err  # 0.18 is coarser than the 0.167 resolution


def test_improvement_and_unchanged_runs_pass(suite: Replay, tmp_path: Path, capsys) -> None:
    baseline = _bless(suite(disabled=range(10)), tmp_path)
    assert _check(capsys, suite(), baseline)[0] == 0  # ten requests fixed
    assert _check(capsys, suite(disabled=range(10)), baseline, "-q")[0] == 0


@pytest.mark.parametrize(("hidden", "code"), [(4, 0), (5, 100)])
def test_repeats_count_once_per_request(
    suite: Replay, tmp_path: Path, capsys, hidden: int, code: int
) -> None:
    """Three repeats of 4 broken requests are 4 votes (p = 1/16), not 12 (p = 1/4096)."""
    baseline = _bless(suite(repeats=3), tmp_path)
    run = suite(disabled=range(hidden), repeats=3)
    got, out, err = _check(capsys, run, baseline, "--metric", "accuracy")
    assert got == code
    p = binomtest(hidden, hidden, 0.5, alternative="greater").pvalue
    assert f"{hidden} requests worse, 0 better, one-sided p = {p:.3g}" in out + err
    requests = json.loads(baseline.read_text())["cells"][0]["requests"]
    assert len(requests) == 30 and {len(r["outcomes"]) for r in requests.values()} == {3}


def test_minimum_accuracy_flag_env_and_baseline(
    suite: Replay, tmp_path: Path, capsys, monkeypatch
) -> None:
    baseline = _bless(suite(), tmp_path)
    run = suite(disabled={0, 1, 2})  # 27 of 30: 0.9; three flips are noise (p = 1/8)
    code, _, err = _check(capsys, run, baseline, "--min-accuracy", "0.95")
    assert code == 100 and "accuracy: 0.900 vs baseline 1.000" in err
    assert "below the minimum 0.95" in err
    assert _check(capsys, run, baseline, "--min-accuracy", "0.85")[0] == 0
    monkeypatch.setenv("SKILLBENCH_MIN_ACCURACY", "0.95")
    assert _check(capsys, run, baseline)[0] == 100
    monkeypatch.delenv("SKILLBENCH_MIN_ACCURACY")
    # recorded in the baseline by bless; a flag overrides it
    strict = _bless(suite(), tmp_path, "--min-accuracy", "0.95", "--max", "miss_rate=0.5")
    assert json.loads(strict.read_text())["thresholds"] == {
        "accuracy": {"min": 0.95},
        "miss_rate": {"max": 0.5},
    }
    code, _, err = _check(capsys, run, strict)
    assert code == 100 and "below the minimum 0.95" in err
    assert _check(capsys, run, strict, "--min-accuracy", "0.5")[0] == 0


def test_metrics_without_a_paired_form_take_absolute_thresholds(
    suite: Replay, tmp_path: Path, capsys
) -> None:
    baseline = _bless(suite(), tmp_path)
    run = suite(disabled={0, 1, 2})  # recall 0.9, precision 1: f1 = 2·0.9/1.9 = 0.947
    code, _, err = _check(capsys, run, baseline, "--min", "f1=0.96")
    assert code == 100 and "all f1: 0.947 vs baseline 1.000: below the minimum 0.96" in err
    code, _, err = _check(capsys, run, baseline, "--metric", "f1")
    assert code == 1 and "no per-request form" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"thresholds": {"accuracy": {"min": "high"}},', "accuracy.min: expected min or max"),
        ('"thresholds": {"acuracy": {"min": 0.5}},', "did you mean 'accuracy'"),
        ('"thresholds": {"accuracy": {"floor": 0.5}},', "accuracy.floor"),
    ],
)
def test_bad_baseline_thresholds_name_the_field(
    suite: Replay, tmp_path: Path, capsys, text: str, message: str
) -> None:
    baseline = _bless(suite(), tmp_path)
    doc = baseline.read_text().replace('"cells":', text + ' "cells":', 1)
    baseline.write_text(doc)
    code, _, err = _check(capsys, suite(), baseline)
    assert code == 1 and message in err and str(baseline) in err


def test_an_unfinished_run_is_an_error(suite: Replay, tmp_path: Path, capsys) -> None:
    baseline = _bless(suite(), tmp_path)
    run = tmp_path / "copy"
    import shutil

    shutil.copytree(suite(), run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest.update(status="interrupted", stop_reason="SIGINT")
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = _check(capsys, run, baseline)
    assert code == 1 and "the run is interrupted (SIGINT)" in err


def test_a_suite_too_small_to_detect_anything_says_so(tmp_path: Path, capsys) -> None:
    """Four requests: even all four breaking has p = 2^-4 = 0.0625, so only a threshold can fail."""
    write_requests(tmp_path, 4)
    base = replay(tmp_path, "base", skills=4)
    broken = replay(tmp_path, "broken", skills=4, disabled=range(4))
    baseline = _bless(base, tmp_path)
    code, out, err = _check(capsys, broken, baseline)
    assert code == 0
    assert (
        "warning: accuracy (cell all): no drop is detectable on 4 requests at α = 0.05 "
        "(even all of them getting worse gives p = 2^-4); only an absolute threshold can fail it"
    ) in err
    assert "4 requests worse, 0 better, one-sided p = 0.0625 ≥ α = 0.05" in out
    assert _check(capsys, broken, baseline, "--min-accuracy", "0.5")[0] == 100
