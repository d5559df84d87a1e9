"""``relabel_run``: a finished run scored again under label overrides, selectors not asked.

The devtools run replays its first requests with the oracle at a budget every skill fits. By
hand: with the labels the run already had, nothing changes, so the rescored run has the
source's very bytes; turning a request the oracle answered right in both orderings (it
invoked the expected skill) into a negative makes those two decisions false triggers and
leaves every other one as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

from support.runs import devtools_config

from skillbench.replay import load_config, relabel_run, run_experiment
from skillbench.results import read_run


def _run(tmp_path: Path) -> Path:
    path = devtools_config(tmp_path, budgets="[100000]", selectors="[{type: oracle}]")
    return run_experiment(load_config(path), output=tmp_path / "run", limit=12).run_dir


def _labels(path: Path, overrides: dict[str, list[str]]) -> Path:
    lines = (json.dumps({"id": k, "expected": v}) for k, v in overrides.items())
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_labels_the_run_had_give_the_same_bytes(tmp_path: Path) -> None:
    run_dir = _run(tmp_path)
    same = {r.request_id: r.expected for r in read_run(run_dir).rows}
    done = relabel_run(run_dir, _labels(tmp_path / "same.jsonl", same), tmp_path / "same")
    assert (done.decisions, done.changed) == (len(same) * 2, 0)  # two orderings per request
    for name in ("results.jsonl", "summary.json"):
        assert (tmp_path / "same" / name).read_bytes() == (run_dir / name).read_bytes()


def test_a_positive_made_negative_turns_the_oracle_s_invocation_into_a_false_trigger(
    tmp_path: Path,
) -> None:
    run_dir = _run(tmp_path)
    before = {(r.ordering, r.request_id): r for r in read_run(run_dir).rows}
    target = next(
        rid
        for (_, rid), r in sorted(before.items())
        if all(before[o, rid].outcome == "correct_skill" for o in ("usage", "alpha"))
    )
    done = relabel_run(run_dir, _labels(tmp_path / "neg.jsonl", {target: []}), tmp_path / "neg")
    assert (done.decisions, done.changed) == (2, 2)
    after = {(r.ordering, r.request_id): r for r in read_run(tmp_path / "neg").rows}
    for ordering in ("usage", "alpha"):
        row = after[ordering, target]
        assert (row.expected, row.outcome, row.visible, row.gold_position) == (
            [],
            "false_trigger",
            None,
            None,
        )
        assert row.chosen == before[ordering, target].chosen is not None
    assert {k: r for k, r in after.items() if k[1] != target} == {
        k: r for k, r in before.items() if k[1] != target
    }
