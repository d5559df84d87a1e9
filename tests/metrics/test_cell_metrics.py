"""Summary cells of small hand-computed cells."""

from __future__ import annotations

import json
import math

import pytest
from pydantic import ValidationError
from support.rows import cell_json

from skillbench.metrics import OUTCOMES, rate, wilson


def row(expected, chosen, outcome, visible=None, position=None, chars=100, tokens=25, **kw):
    return {
        "expected": expected,
        "chosen": chosen,
        "outcome": outcome,
        "visible": visible,
        "gold_position": position,
        "listing_chars": chars,
        "listing_tokens": tokens,
        **kw,
    }


ROWS = [
    row(["a"], "a", "correct_skill", True, 0, chars=100),
    row(["a"], "b", "wrong_skill", True, 1, chars=200),
    row(["b"], None, "missed", True, 0, chars=300),
    row(["b"], None, "missed", False, None, chars=400),
    row([], None, "correct_abstain", chars=100),
    row([], "a", "false_trigger", chars=100),
    row([], "zz", "hallucinated", chars=100, tokens=None),
    row(["a"], None, "error", True, 2, chars=400),
]


def test_rates_match_hand_computation() -> None:
    # The errored decision (last row) got no answer: it is counted in n and errors, and left
    # out of every rate but error_rate, so the rates are over the 7 completed decisions.
    m = cell_json(ROWS)
    assert (m["n"], m["errors"]) == (8, 1)
    assert m["error_rate"] == pytest.approx(1 / 8)
    assert m["accuracy"] == pytest.approx(2 / 7)  # correct_skill + correct_abstain
    assert m["precision"] == pytest.approx(1 / 4)  # invoked: r1 r2 r6 r7
    assert m["recall"] == pytest.approx(1 / 4)  # completed positives: r1..r4
    assert m["f1"] == pytest.approx(0.25)  # precision = recall = 1/4
    assert m["false_invocation_rate"] == pytest.approx(2 / 3)  # false_trigger + hallucinated
    assert m["unwanted_invocations"] == 3
    assert m["unwanted_invocation_rate"] == pytest.approx(3 / 7)
    assert m["miss_rate"] == pytest.approx(2 / 4)
    assert m["coverage"] == pytest.approx(3 / 4)  # r1 r2 r3 shown
    assert m["recall_when_shown"] == pytest.approx(1 / 3)
    assert m["mean_listing_chars"] == pytest.approx(1700 / 8)
    assert m["mean_listing_tokens"] == pytest.approx(25.0)
    assert m["outcomes"] == {
        "correct_skill": 1,
        "wrong_skill": 1,
        "missed": 2,
        "false_trigger": 1,
        "correct_abstain": 1,
        "hallucinated": 1,
        "malformed": 0,
        "error": 1,
    }


def test_every_rate_has_its_wilson_interval() -> None:
    m = cell_json(ROWS)
    assert m["accuracy_ci"] == list(wilson(2, 7))
    assert m["precision_ci"] == list(wilson(1, 4))
    assert m["false_invocation_rate_ci"] == list(wilson(2, 3))
    assert m["coverage_ci"] == list(wilson(3, 4))
    assert m["error_rate_ci"] == list(wilson(1, 8))
    low, high = m["f1_ci"]
    assert 0 <= low <= m["f1"] <= high <= 1


def test_by_position_per_skill_and_confusion() -> None:
    m = cell_json(ROWS)
    assert {k: (v["n"], v["accuracy"]) for k, v in m["by_position"].items()} == {
        "0": (2, 0.5),
        "1": (1, 0.0),
    }  # the errored row (position 2) is not scored
    a, b, zz = m["per_skill"]["a"], m["per_skill"]["b"], m["per_skill"]["zz"]
    assert (a["n"], a["recall"], a["chosen"], a["precision"]) == (2, 0.5, 2, 0.5)
    assert (b["n"], b["recall"], b["chosen"], b["precision"]) == (2, 0.0, 1, 0.0)
    assert (zz["n"], zz["recall"], zz["recall_ci"], zz["chosen"]) == (0, None, None, 1)
    # the fourth row's expected skill was not shown: outside the confusion, in not_shown
    assert m["confusion"] == {
        "a": {"<error>": 1, "a": 1, "b": 1},
        "b": {"none": 1},
        "none": {"a": 1, "none": 1, "zz": 1},
    }
    assert m["not_shown"] == {"b": 1}


def test_train_rows_are_excluded_when_a_split_exists() -> None:
    train = [row(["a"], "a", "correct_skill", True, 0, split="train")] * 5
    test = [{**r, "split": "test"} for r in ROWS]
    assert cell_json(train + test)["accuracy"] == pytest.approx(2 / 7)
    assert cell_json(train + test)["n"] == 8


def test_empty_cell_is_json_ready_with_nulls() -> None:
    m = cell_json([])
    assert m["n"] == 0
    assert m["accuracy"] is None and m["accuracy_ci"] is None and m["f1_ci"] is None
    assert m["mean_listing_chars"] is None
    json.dumps(m, allow_nan=False)


def test_undefined_rates_are_null_not_nan() -> None:
    m = cell_json([row([], None, "correct_abstain")])
    assert m["accuracy"] == 1.0
    assert m["recall"] is None and m["precision"] is None and m["f1"] is None
    assert m["false_invocation_rate"] == 0.0
    json.dumps(m, allow_nan=False)


def test_unknown_outcome_is_refused_with_the_field_named() -> None:
    with pytest.raises(ValidationError, match=r"outcome"):
        cell_json([row([], None, "bogus", request_id="r9")])


def test_rate_helper() -> None:
    assert rate(1, 4) == 0.25
    assert rate(0, 0) is None
    assert set(OUTCOMES) == set(cell_json(ROWS)["outcomes"])
    assert not math.isnan(cell_json(ROWS)["f1"])
