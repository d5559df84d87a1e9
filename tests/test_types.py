"""The shared vocabulary: every outcome reasoned out by hand, and the outcome groups."""

from __future__ import annotations

import pytest

from skillbench.types import (
    CELL_FIELDS,
    CORRECT,
    INVOKED,
    NOT_RUN,
    OUTCOMES,
    UNANSWERED,
    UNWANTED,
    CellKey,
    Decision,
    cell_fields,
    classify,
)

SHOWN = ("pdf", "git", "docs")

# (expected labels, decision, outcome): each line reasoned from the definitions, not the code.
TRUTH = [
    # positives with one acceptable skill
    (["pdf"], Decision("invoke", "pdf"), "correct_skill"),
    (["pdf"], Decision("invoke", "git"), "wrong_skill"),
    (["pdf"], Decision("abstain"), "missed"),
    (["pdf"], Decision("invoke", "ghost"), "hallucinated"),  # not a listed name
    (["hidden"], Decision("invoke", "hidden"), "hallucinated"),  # right name, but not shown
    # positives accepting several skills: any of them is right
    (["pdf", "docs"], Decision("invoke", "docs"), "correct_skill"),
    (["pdf", "docs"], Decision("invoke", "git"), "wrong_skill"),
    (["pdf", "docs"], Decision("abstain"), "missed"),
    # negatives: nothing should trigger
    ([], Decision("abstain"), "correct_abstain"),
    ([], Decision("invoke", "git"), "false_trigger"),
    ([], Decision("invoke", "ghost"), "hallucinated"),
    # unusable answers, whatever the label
    (["pdf"], Decision("malformed"), "malformed"),
    ([], Decision("malformed"), "malformed"),
    (["pdf"], Decision("error", detail={"error": "timeout"}), "error"),
    ([], Decision("error"), "error"),
    # an abstention carrying a stray name is still an abstention
    ([], Decision("abstain", "git"), "correct_abstain"),
]


@pytest.mark.parametrize(("expected", "decision", "outcome"), TRUTH)
def test_outcome_truth_table(expected: list[str], decision: Decision, outcome: str) -> None:
    assert classify(expected, decision, SHOWN) == outcome


def test_every_outcome_is_reached() -> None:
    assert {o for _, _, o in TRUTH} == set(OUTCOMES)


def test_groups_are_the_documented_sets() -> None:
    assert {"correct_skill", "correct_abstain"} == CORRECT
    assert {"correct_skill", "wrong_skill", "false_trigger", "hallucinated"} == INVOKED
    assert {"wrong_skill", "false_trigger", "hallucinated"} == UNWANTED
    assert {"hallucinated", "malformed", "error"} == NOT_RUN
    assert {"error"} == UNANSWERED
    for group in (CORRECT, INVOKED, UNWANTED, NOT_RUN, UNANSWERED):
        assert group <= set(OUTCOMES)


def test_cell_key_reads_rows_and_cells() -> None:
    row = {"catalog": "c", "profile": "p", "budget": None, "ordering": "alpha"}
    key = CellKey.of({**row, "half_life": "7d", "selector": "s", "repeat": 3})
    assert key == ("c", "p", None, "alpha", "7d", "s", None, None) and key.selector == "s"
    assert CellKey.of(row).selector is None
    sized = CellKey.of({**row, "catalog_size": 25, "distractors": "nearest"})
    assert sized.catalog_size == 25 and sized.distractors == "nearest"


def test_cell_fields_leave_out_size_fields_no_record_sets() -> None:
    plain = {"catalog": "c", "budget": None}
    assert cell_fields([plain]) == CELL_FIELDS[:6]
    assert cell_fields([plain, {"catalog_size": 10}]) == CELL_FIELDS[:7]
