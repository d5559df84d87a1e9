"""``tune`` on trigger eval sets: the sets' validation split is tune's blind test split."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from skillbench.cli._main import main


def test_dry_run_counts_the_sets_split(skills: Path, capsys: pytest.CaptureFixture) -> None:
    code = main(["tune", str(skills), "--dry-run", "--format", "json", "-o", str(skills / "out")])
    plan = json.loads(capsys.readouterr().out)
    assert code == 0
    # pdf-extract: 2 + 2 queries, one of each held out; pdf-merge: 1 + 1, too few to split,
    # all in train (its output eval is not a query).
    assert (plan["train"], plan["test"], plan["tunable"]) == (4, 2, 2)


def test_the_validation_queries_are_the_test_split(skills: Path, tmp_path: Path) -> None:
    out = tmp_path / "tune"
    code = main(
        [
            "tune",
            str(skills / "pdf-extract"),
            "--iterations",
            "1",
            "--focus",
            "1",
            "--candidates",
            "1",
            "-o",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    test_ids = [json.loads(line)["id"] for line in (out / "test.jsonl").read_text().splitlines()]
    # skill-creator's split of pdf-extract's set: seed 42, shuffle the two should-trigger
    # queries (#1, #2), then the two should-not ones (#3, #4), hold out the first of each.
    random.seed(42)
    trigger, no_trigger = [1, 2], [3, 4]
    random.shuffle(trigger)
    random.shuffle(no_trigger)
    assert sorted(test_ids) == sorted([f"pdf-extract#{trigger[0]}", f"pdf-extract#{no_trigger[0]}"])
