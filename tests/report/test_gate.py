"""``skillbench bless`` and ``skillbench check``: exit codes 0 / 100 / 1 and JUnit XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import flipped
from synthetic import paired_rows, sweep_rows, write_run

from skillbench.cli import main


def _bless(run: Path, tmp_path: Path) -> Path:
    baseline = tmp_path / "ci" / "baseline.json"
    assert main(["bless", str(run), str(baseline), "-q"]) == 0
    return baseline


def test_unchanged_run_passes_with_junit(sweep_run: Path, tmp_path: Path) -> None:
    baseline = _bless(sweep_run, tmp_path)
    junit = tmp_path / "junit.xml"
    assert main(["check", str(sweep_run), "--baseline", str(baseline), "--junit", str(junit)]) == 0
    suite = ET.parse(junit).getroot().find("testsuite")
    cells = len(json.loads((sweep_run / "summary.json").read_text())["cells"])
    cases = suite.findall("testcase")
    assert len(cases) == cells * 2  # accuracy, false_invocation_rate
    assert suite.get("failures") == "0"
    assert {c.get("name") for c in cases} == {"accuracy", "false_invocation_rate"}


def test_regression_exits_100_and_names_cell_metric_values(tmp_path: Path, capsys) -> None:
    a, b = flipped(40, worse=6, better=0)
    base = write_run(tmp_path / "a", paired_rows(a))
    cur = write_run(tmp_path / "b", paired_rows(b))
    baseline = _bless(base, tmp_path)
    junit = tmp_path / "j.xml"
    code = main(
        [
            "check",
            str(cur),
            "--baseline",
            str(baseline),
            "--metric",
            "accuracy",
            "--junit",
            str(junit),
        ]
    )
    assert code == 100
    err = capsys.readouterr().err
    assert "FAIL all accuracy: 0.850 [" in err and "vs baseline 1.000 [" in err
    assert "dropped by 0.150 > max-drop 0.02" in err and "p = 0.0312" in err
    failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
    assert failure is not None and "accuracy" in failure.get("message")


def test_small_significant_drop_fails_even_within_max_drop(tmp_path: Path, capsys) -> None:
    a, b = flipped(400, worse=12, better=0)  # 3 points, paired p ≈ 0.0005
    baseline = _bless(write_run(tmp_path / "a", paired_rows(a)), tmp_path)
    cur = write_run(tmp_path / "b", paired_rows(b))
    flags = ["--metric", "accuracy", "--max-drop", "0.1"]
    code = main(["check", str(cur), "--baseline", str(baseline), *flags])
    assert code == 100
    assert "paired exact McNemar" in capsys.readouterr().err


def test_unpaired_fallback_uses_newcombe_on_kept_counts(tmp_path: Path, capsys) -> None:
    a, b = flipped(400, worse=60, better=0)
    base, cur = (write_run(tmp_path / n, paired_rows(x)) for n, x in (("a", a), ("b", b)))
    for run in (base, cur):
        (run / "results.jsonl").unlink()
    baseline = _bless(base, tmp_path)
    flags = ["--metric", "accuracy", "--max-drop", "0.5"]
    code = main(["check", str(cur), "--baseline", str(baseline), *flags])
    assert code == 100
    assert "unpaired Newcombe" in capsys.readouterr().err


def test_noise_within_tolerance_passes(tmp_path: Path) -> None:
    a, b = flipped(100, worse=2, better=1)
    baseline = _bless(write_run(tmp_path / "a", paired_rows(a)), tmp_path)
    cur = write_run(tmp_path / "b", paired_rows(b))
    assert main(["check", str(cur), "--baseline", str(baseline), "-q"]) == 0


def test_absolute_floor(sweep_run: Path, tmp_path: Path, capsys) -> None:
    baseline = _bless(sweep_run, tmp_path)
    assert (
        main(["check", str(sweep_run), "--baseline", str(baseline), "--min", "accuracy=0.99"])
        == 100
    )
    assert "below the minimum 0.99" in capsys.readouterr().err


@pytest.mark.parametrize(("triggers", "code"), [(8, 100), (0, 0)])
def test_lower_is_better_gates_on_a_rise(tmp_path: Path, triggers: int, code: int) -> None:
    def run(name: str, n_triggers: int) -> Path:
        rows = paired_rows([True] * 30)
        for i, row in enumerate(rows[:20]):  # 20 negatives, 10 positives
            hit = i < n_triggers
            row.update(
                expected=[],
                visible=None,
                gold_position=None,
                chosen="review" if hit else None,
                outcome="false_trigger" if hit else "correct_abstain",
            )
        return write_run(tmp_path / name, rows)

    baseline = _bless(run("base", 2), tmp_path)
    cur = run("cur", triggers)
    assert (
        main(
            [
                "check",
                str(cur),
                "--baseline",
                str(baseline),
                "--metric",
                "false_invocation_rate",
                "-q",
            ]
        )
        == code
    )


def test_errors_exit_1(sweep_run: Path, tmp_path: Path, capsys) -> None:
    baseline = _bless(sweep_run, tmp_path)
    other = write_run(tmp_path / "other", sweep_rows(budgets=(500, 4000), n_requests=10))
    assert main(["check", str(other), "--baseline", str(baseline)]) == 1
    assert "different cells" in capsys.readouterr().err
    assert main(["check", str(sweep_run), "--baseline", str(tmp_path / "nope.json")]) == 1
    assert main(["check", str(tmp_path / "nope"), "--baseline", str(baseline)]) == 1
    assert main(["check", str(sweep_run), "--baseline", str(baseline), "--metric", "acc"]) == 1
    assert "did you mean 'accuracy'" in capsys.readouterr().err
    assert main(["check", str(sweep_run), "--baseline", str(sweep_run / "summary.json")]) == 1


def test_empty_metric_list_is_an_error_not_a_silent_pass(
    sweep_run: Path, tmp_path: Path, capsys
) -> None:
    baseline = _bless(sweep_run, tmp_path)
    assert main(["check", str(sweep_run), "--baseline", str(baseline), "--metric", " , "]) == 1
    assert "--metric: no metric given" in capsys.readouterr().err


def test_baseline_from_env(sweep_run: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SKILLBENCH_BASELINE", str(_bless(sweep_run, tmp_path)))
    assert main(["check", str(sweep_run), "-q"]) == 0
