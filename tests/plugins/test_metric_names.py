"""A metric named by ``package.module:object`` is the same metric as by its registered name,
in ``report --objective``, ``check``'s ``--metric``/``--min``/``--max`` and ``bless``; a
metric that only a reference reaches (``ABSTAIN_RATE``, no summary column) is computed from
the run's rows wherever it is named.

Values by hand (see test_plugins.py for what each listing shows): ``toy/first`` and ``last``
invoke on all five requests, so their invoke rate is 1.0 and their abstain rate 0.0 in every
cell; the oracle invokes the shown expected skills, 1, 4, 2 and 4 of 5 on toy-names at 13
and 100 and bare names at 13 and 100, so its abstain rate is 0.8, 0.2, 0.6 and 0.2.
"""

from __future__ import annotations

import json
from pathlib import Path

from toy_project import Sites, cli

INVOKE_RATE = "skillbench_toy.metrics:INVOKE_RATE"
ABSTAIN_RATE = "skillbench_toy.metrics:ABSTAIN_RATE"


def test_a_metric_only_a_reference_reaches_is_a_report_objective(
    toy_run: Path, sites: Sites
) -> None:
    """Lower abstain rate is better: every cell of a selector under test has 0.0, so the tie
    goes to the shortest listing (toy-names at 13, toy/first first); the oracle beside it
    abstains on 4 of 5."""
    root = toy_run.parent
    args = ["report", "out", "--objective", ABSTAIN_RATE, "--format", "md", "-o", "abstain"]
    done = cli(args, root, sites.toy)
    assert done.code == 0, done.stderr
    text = (root / "abstain" / "report.md").read_text()
    assert (
        "**Best cell on toy/abstain_rate** (the objective; decisions that invoked no skill / "
        "completed decisions): **profile=toy-names budget=13 selector=toy/first**, "
        "toy/abstain_rate **0.000**"
    ) in text
    assert "Baselines on the same listing (toy/abstain_rate): oracle 0.800." in text


def test_check_bounds_a_metric_only_a_reference_reaches(toy_run: Path, sites: Sites) -> None:
    """``--min ABSTAIN_RATE=0.5``: the eight cells of the toy selectors (0.0) and the two
    oracle cells at 100 characters (0.2) fail; the oracle at 13 (0.8, 0.6) holds. The 24
    drop checks of the default metrics against an identical baseline all pass."""
    root = toy_run.parent
    assert cli(["bless", "out", "SAME.json"], root, sites.toy).code == 0
    done = cli(
        ["check", "out", "--baseline", "SAME.json", "--min", f"{ABSTAIN_RATE}=0.5"],
        root,
        sites.toy,
    )
    assert done.code == 100, done.stderr
    assert "26 passed, 10 failed, 0 skipped (36 checks)" in done.stdout
    failed = [line for line in done.stderr.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 10 and all("toy/abstain_rate" in line for line in failed)
    assert sum("selector=oracle" in line for line in failed) == 2


def test_a_ceiling_by_reference_is_the_ceiling_by_name(toy_run: Path, sites: Sites) -> None:
    """``--max INVOKE_RATE=0.9`` fails the eight toy cells (1.0) as ``--max
    toy/invoke_rate=0.9`` does, beside the 24 passing drop checks; naming the metric both
    ways in ``--metric`` and ``--max`` gates it once per cell; ``bless`` records the
    ceiling under the registered name."""
    root = toy_run.parent
    assert cli(["bless", "out", "SAME.json"], root, sites.toy).code == 0
    for name in (INVOKE_RATE, "toy/invoke_rate"):
        args = ["check", "out", "--baseline", "SAME.json", "--max", f"{name}=0.9"]
        done = cli(args, root, sites.toy)
        assert done.code == 100, done.stderr
        assert "28 passed, 8 failed, 0 skipped (36 checks)" in done.stdout
    both = ["--metric", INVOKE_RATE, "--max", "toy/invoke_rate=0.9"]
    done = cli(["check", "out", "--baseline", "SAME.json", *both], root, sites.toy)
    assert done.code == 100, done.stderr
    assert "4 passed, 8 failed, 0 skipped (12 checks)" in done.stdout
    done = cli(["bless", "out", "CAPPED.json", "--max", f"{INVOKE_RATE}=0.9"], root, sites.toy)
    assert done.code == 0, done.stderr
    recorded = json.loads((root / "CAPPED.json").read_text())["thresholds"]
    assert recorded == {"toy/invoke_rate": {"max": 0.9}}
