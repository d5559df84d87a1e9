"""Repeats pooled per request in ``compare``, and the false-invocation rate gated both ways."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gate_suite import Replay, replay, write_requests

from skillbench.cli import main
from skillbench.report import compare_runs, parse_selection


def _compare(base: Path, cand: Path):
    return compare_runs(parse_selection(str(base)), parse_selection(str(cand)), resamples=2000)


def test_compare_counts_a_request_once_however_many_repeats(suite: Replay) -> None:
    (once,) = _compare(suite(), suite(disabled=range(4))).results
    (thrice,) = _compare(suite(repeats=3), suite(disabled=range(4), repeats=3)).results
    assert (thrice.n_requests, thrice.n_decisions) == (30, 180)
    assert (thrice.stats.test.worse, thrice.stats.test.better) == (4, 0)
    assert thrice.stats.test.p_worse == pytest.approx(1 / 16)  # 4 votes, not 12
    # the bootstrap resamples requests with their repeats: the same per-request scores give
    # the same interval whether each request was replayed once or three times
    assert thrice.stats.bootstrap == once.stats.bootstrap
    assert thrice.stats.bootstrap.diff == pytest.approx(-4 / 30)


def test_compare_says_what_the_suite_can_detect(suite: Replay, capsys) -> None:
    assert main(["compare", str(suite()), str(suite(disabled={7})), "--resamples", "500"]) == 0
    out = capsys.readouterr().out
    assert (
        "No significant difference on accuracy (two-sided p = 1, one-sided p(B worse) = 0.5). "
        "The smallest detectable drop here is 0.167 (5 of 30 requests worse, none better, "
        "at α = 0.05)."
    ) in out


@pytest.fixture(scope="module")
def chatty(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """10 positives and 20 negatives under a random selector that never / always invokes."""
    root = tmp_path_factory.mktemp("negatives")
    write_requests(root, 10, negatives=20)
    calm, eager = (
        replay(root, name, skills=10, selector={"type": "random", "p_abstain": p})
        for name, p in (("calm", 1.0), ("eager", 0.0))
    )
    return calm, eager


def test_false_invocation_rise_fails(chatty: tuple[Path, Path], tmp_path: Path, capsys) -> None:
    calm, eager = chatty
    baseline = tmp_path / "b.json"
    assert main(["bless", str(calm), str(baseline), "-q"]) == 0
    flags = ["--metric", "false_invocation_rate"]
    assert main(["check", str(eager), "--baseline", str(baseline), *flags]) == 100
    err = capsys.readouterr().err
    assert "all false_invocation_rate: 1.000 vs baseline 0.000 (20 requests" in err
    assert "rose by 1.000 > max-drop 0.02, not noise: 20 requests worse, 0 better" in err


def test_maximum_false_invocation_rate(
    chatty: tuple[Path, Path], tmp_path: Path, capsys, monkeypatch
) -> None:
    calm, eager = chatty
    for run in (calm, eager):
        baseline = tmp_path / f"{run.name}.json"
        assert main(["bless", str(run), str(baseline), "-q"]) == 0
        flag = ["--max-false-invocation-rate", "0.5"]
        code = main(["check", str(run), "--baseline", str(baseline), *flag])
        assert code == (100 if run is eager else 0)
    assert "false_invocation_rate: 1.000 vs baseline 1.000" in capsys.readouterr().err
    monkeypatch.setenv("SKILLBENCH_MAX_FALSE_INVOCATION_RATE", "0.5")
    assert main(["check", str(eager), "--baseline", str(tmp_path / "eager.json")]) == 100
    assert "above the maximum 0.5" in capsys.readouterr().err
    doc = json.loads((tmp_path / "eager.json").read_text())
    assert "thresholds" not in doc  # bless records thresholds only when given
