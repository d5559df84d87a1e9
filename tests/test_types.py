"""The shared vocabulary: every outcome reasoned out by hand, and the outcome groups."""

from __future__ import annotations

import pytest
from support.rows import result_row

from skillbench.results import CellFields, ResultRow
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


def test_rows_and_cells_extend_the_one_cell_key() -> None:
    fields = dict(catalog="c", profile="p", budget=None, ordering="alpha", half_life="7d")
    key = CellKey(**fields, selector="s")
    assert tuple(CellKey.model_fields) == CELL_FIELDS
    row = result_row(**fields, selector="s", repeat=3)
    assert row.key == key and hash(row.key) == hash(key) and type(row.key) is CellKey
    assert tuple(ResultRow.model_fields)[: len(CELL_FIELDS)] == CELL_FIELDS
    assert tuple(CellFields.model_fields)[: len(CELL_FIELDS)] == CELL_FIELDS
    assert key.path == "c/p/None/alpha/7d/s"
    sized = CellKey(**fields, selector="s", catalog_size=25, distractors="nearest")
    assert sized != key and sized.path == "c/p/None/alpha/7d/s/25/nearest"
    assert "catalog_size" not in key.model_dump() and sized.model_dump()["catalog_size"] == 25


def test_cell_fields_leave_out_size_fields_no_record_sets() -> None:
    fields = dict(catalog="c", profile="p", budget=None, ordering="alpha", half_life="7d")
    plain = CellKey(**fields, selector="s")
    sized = CellKey(**fields, selector="s", catalog_size=10)
    assert cell_fields([plain]) == CELL_FIELDS[:6]
    assert cell_fields([plain, sized]) == CELL_FIELDS[:7]
