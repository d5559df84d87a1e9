"""``check`` errors exit 1 with a clear message: a changed suite is never a silent pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_suite import N, Replay, replay, write_requests

from skillbench.cli import main


@pytest.fixture
def baseline(suite: Replay, tmp_path: Path) -> Path:
    path = tmp_path / "baseline.json"
    assert main(["bless", str(suite()), str(path), "-q"]) == 0
    return path


def _err(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def test_unchanged_run_passes_with_one_testcase_per_metric(
    suite: Replay, baseline: Path, tmp_path: Path
) -> None:
    import xml.etree.ElementTree as ET

    junit = tmp_path / "junit.xml"
    assert main(["check", str(suite()), "--baseline", str(baseline), "--junit", str(junit)]) == 0
    cases = ET.parse(junit).getroot().findall("testsuite/testcase")
    assert [c.get("name") for c in cases] == ["accuracy", "false_invocation_rate"]
    assert cases[1].find("skipped") is not None  # no negative requests


def test_a_different_grid_or_request_set_is_an_error(
    baseline: Path, tmp_path: Path, capsys
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    write_requests(other, N)
    code, err = _err(
        capsys,
        "check",
        str(replay(other, "b4k", skills=N, budget=4000)),
        "--baseline",
        str(baseline),
    )
    assert code == 1 and "different cells" in err and "re-bless" in err
    fewer = tmp_path / "fewer"
    fewer.mkdir()
    write_requests(fewer, N - 5)
    run = replay(fewer, "short", skills=N)
    code, err = _err(capsys, "check", str(run), "--baseline", str(baseline))
    assert code == 1 and "unpaired requests: 5 only in A (q25, q26, q27, q28, q29)" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--metric", "acc"], "did you mean 'accuracy'"),
        (["--metric", " , "], "--metric: no metric given"),
        (["--min", "accuracy"], "--min: expected metric=number"),
        (["--max", "recal=0.5"], "--min/--max: unknown metric 'recal'"),
        (["--alpha", "1.5"], "alpha must be in (0, 1)"),
        (["--max-drop", "-0.1"], "--max-drop must be >= 0"),
    ],
)
def test_bad_flags(suite: Replay, baseline: Path, capsys, argv: list[str], message: str) -> None:
    code, err = _err(capsys, "check", str(suite()), "--baseline", str(baseline), *argv)
    assert code == 1 and message in err


def test_missing_files(suite: Replay, baseline: Path, tmp_path: Path, capsys) -> None:
    code, err = _err(capsys, "check", str(suite()), "--baseline", str(tmp_path / "nope.json"))
    assert code == 1 and "baseline not found" in err
    code, err = _err(capsys, "check", str(tmp_path / "nope"), "--baseline", str(baseline))
    assert code == 1 and "not a directory" in err
    summary = suite() / "summary.json"
    code, err = _err(capsys, "check", str(suite()), "--baseline", str(summary))
    assert code == 1 and "not a skillbench baseline" in err


def test_baseline_and_thresholds_from_env(
    suite: Replay, baseline: Path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("SKILLBENCH_BASELINE", str(baseline))
    assert main(["check", str(suite()), "-q"]) == 0
    monkeypatch.setenv("SKILLBENCH_MIN", "recall=0.99,coverage=0.99")
    assert main(["check", str(suite(disabled={3})), "-q"]) == 100
    err = capsys.readouterr().err
    assert "all recall: 0.967 vs baseline 1.000: below the minimum 0.99" in err
    assert "all coverage: 0.967 vs baseline 1.000: below the minimum 0.99" in err
