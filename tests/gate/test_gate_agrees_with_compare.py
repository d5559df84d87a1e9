"""``check`` and ``compare --fail-on-regression`` agree on every suite: same test, same rule.

For any pair of runs of the 30-request suite (some requests broken in the candidate, others
fixed), any tolerance and any α: check fails ⇔ compare flags a regression ⇔ scipy's one-sided
exact binomial p on the changed requests is below α and the drop exceeds the tolerance.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gate_suite import N, Replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

from skillbench.cli import main


@st.composite
def flips(draw: st.DrawFn) -> tuple[frozenset[int], frozenset[int]]:
    """(requests broken in B, requests fixed in B), disjoint."""
    worse = draw(st.frozensets(st.integers(0, N - 1), max_size=N))
    better = draw(st.frozensets(st.integers(0, N - 1).filter(lambda i: i not in worse)))
    return worse, better


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("agree")


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    case=flips(),
    tolerance=st.sampled_from([0.0, 0.02, 0.1, 0.25]),
    alpha=st.sampled_from([0.05, 0.01]),
)
def test_check_fails_iff_compare_regresses(
    suite: Replay,
    scratch: Path,
    capsys: pytest.CaptureFixture[str],
    case: tuple[frozenset[int], frozenset[int]],
    tolerance: float,
    alpha: float,
) -> None:
    worse, better = case
    base, cand = suite(disabled=better), suite(disabled=worse)
    baseline = scratch / "baseline.json"
    assert main(["bless", str(base), str(baseline), "-q"]) == 0
    rule = ["--max-drop", str(tolerance), "--alpha", str(alpha)]
    gate = main(["check", str(cand), "--baseline", str(baseline), "--metric", "accuracy", *rule])
    capsys.readouterr()
    cmp = main(
        [
            "compare",
            str(base),
            str(cand),
            "--format",
            "json",
            "--resamples",
            "200",
            *rule,
            "--fail-on-regression",
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    (pair,) = doc["pairs"]

    changed = len(worse) + len(better)
    p_worse = (
        float(binomtest(len(worse), changed, 0.5, alternative="greater").pvalue) if changed else 1
    )
    p_two = binomtest(len(worse), changed, 0.5).pvalue if changed else 1
    drop = (len(worse) - len(better)) / N
    assert (pair["worse"], pair["better"]) == (len(worse), len(better))
    assert pair["p_worse"] == pytest.approx(p_worse)
    assert pair["p_value"] == pytest.approx(p_two)
    assert pair["drop"] == pytest.approx(drop)
    regression = bool(p_worse < alpha and drop > tolerance + 1e-9)
    assert pair["regression"] is regression
    assert gate == (100 if regression else 0)
    assert cmp == gate
