"""Results-row columns and the summary cell's ``cost`` object."""

from __future__ import annotations

from typing import Any

import pytest
from support.rows import result_row

from skillbench.catalog import Skill
from skillbench.cost import (
    FORK_SUMMARY_KEY,
    CostModel,
    annotate_rows,
    cell_cost,
    pricing_for,
    remaining_turns,
    session_costs,
)
from skillbench.dataset import LabelledRequest
from skillbench.results import ResultRow
from skillbench.tokens import count_tokens

CATALOG = {
    "review": Skill(name="review", description="d", body="Review $ARGUMENTS. " * 60),
    "tour": Skill(name="tour", description="d", body="Explore the repo. " * 80, context="fork"),
}
REQUESTS = [
    LabelledRequest("a1", "review my diff", ("review",), session="s", turn=0, args="src/"),
    LabelledRequest("a2", "now the tests", ("review",), session="s", turn=1),
    LabelledRequest("a3", "thanks", (), session="s", turn=2),
    LabelledRequest("b1", "tour please", ("tour",)),
]
MODEL = CostModel(fork_system_prompt_tokens=400, fork_work_tokens=100, summary_tokens=50)


def row(request_id: str, chosen: str | None, outcome: str, **extra: Any) -> ResultRow:
    request = next(r for r in REQUESTS if r.id == request_id)
    fields = {"session": request.session, "turn": request.turn, "listing_tokens": 300}
    return result_row(request_id=request_id, chosen=chosen, outcome=outcome, **fields, **extra)


def test_remaining_turns_count_the_current_turn() -> None:
    assert remaining_turns(REQUESTS) == {"a1": 3, "a2": 2, "a3": 1, "b1": 1}
    unordered = [LabelledRequest("x", "t", session="q"), LabelledRequest("y", "t", session="q")]
    assert remaining_turns(unordered) == {"x": 2, "y": 1}


def test_annotate_rows_fills_three_columns() -> None:
    rows = [
        row("a1", "review", "correct_skill"),
        row("a3", "tour", "false_trigger"),
        row("b1", None, "missed"),
        row("a2", "nonexistent", "hallucinated"),
    ]
    rows = annotate_rows(rows, CATALOG, REQUESTS, MODEL)
    review_text = ("Review src/. " * 60).strip()  # args "src/" from request a1, 3 turns left
    body = count_tokens(f'<skill name="review">\n{review_text}\n</skill>')
    assert rows[0].inline_tokens == body * 3
    assert rows[0].declared_tokens == rows[0].inline_tokens
    tour_body = count_tokens(
        '<skill name="tour">\n' + ("Explore the repo. " * 80).strip() + "\n</skill>"
    )
    fork = 400 + tour_body + count_tokens("thanks") + 100 + 50 + 50 * 1
    assert (rows[1].inline_tokens, rows[1].fork_tokens) == (tour_body, fork)
    assert rows[1].declared_tokens == fork
    for r in rows[2:]:
        assert r.inline_tokens is r.fork_tokens is r.declared_tokens is None


def test_horizon_replaces_session_turns() -> None:
    rows = [row("b1", "review", "wrong_skill")]
    rows = annotate_rows(rows, CATALOG, REQUESTS, CostModel(horizon=7))
    single = [row("b1", "review", "wrong_skill")]
    single = annotate_rows(single, CATALOG, REQUESTS, CostModel())
    assert rows[0].inline_tokens == 7 * single[0].inline_tokens


def test_measured_fork_summary_overrides_the_default() -> None:
    rows = [row("b1", "tour", "correct_skill", detail={FORK_SUMMARY_KEY: 10})]
    default = [row("b1", "tour", "correct_skill")]
    rows = annotate_rows(rows, CATALOG, REQUESTS, MODEL)
    default = annotate_rows(default, CATALOG, REQUESTS, MODEL)
    assert default[0].fork_tokens - rows[0].fork_tokens == (50 - 10) * 2


def test_cell_cost_totals_waste_and_dollars() -> None:
    rows = [
        row("a1", "review", "correct_skill"),
        row("a2", None, "missed"),
        row("a3", "tour", "false_trigger"),
        row("b1", "tour", "correct_skill"),
    ]
    rows = annotate_rows(rows, CATALOG, REQUESTS, MODEL)
    cost = cell_cost(rows, CATALOG, REQUESTS, MODEL)
    invoked = [r for r in rows if r.chosen]
    assert cost.decisions == 4 and cost.invocations == 3
    assert cost.listing_tokens == 1200
    assert cost.inline_tokens == sum(r.inline_tokens or 0 for r in invoked)
    assert cost.fork_tokens == sum(r.fork_tokens or 0 for r in invoked)
    assert cost.declared_tokens == sum(r.declared_tokens or 0 for r in invoked)
    assert cost.waste_tokens == rows[2].declared_tokens
    assert cost.all_tokens == 1200 + cost.declared_tokens
    # review runs inline (body carried), both tour calls fork (only 50-token summaries carried)
    assert cost.main_context_tokens == 1200 + rows[0].inline_tokens + 50 * 1 + 50 * 1
    pricing = pricing_for("gpt-4o")
    assert cost.listing_dollars == pytest.approx(1200 * pricing.input)
    assert cost.dollars_cached < cost.dollars
    assert cost.sessions.n == 2
    assert cost.model == "gpt-4o" and cost.summary_tokens == 50


def test_session_totals_split_by_session_and_repeat() -> None:
    rows = [
        row("a1", "review", "correct_skill"),
        row("a2", "review", "correct_skill"),
        row("a1", "review", "correct_skill", repeat=1),
    ]
    sessions = session_costs(rows, CATALOG, REQUESTS, MODEL)
    assert set(sessions) == {"0/s", "1/s"}
    assert sessions["0/s"].invocations == 2 and sessions["1/s"].invocations == 1
    assert sessions["0/s"].listing_tokens == 600


def test_per_skill_groups_invocations_and_reports_break_even() -> None:
    tiny = Skill(name="tiny", description="d", body="ok")
    catalog = {**CATALOG, "tiny": tiny}
    rows = [row("a1", "review", "correct_skill"), row("a2", "review", "correct_skill")]
    rows += [row("a3", "tiny", "false_trigger"), row("b1", "tour", "correct_skill")]
    cost = cell_cost(rows, catalog, REQUESTS, MODEL).per_skill
    assert list(cost) == ["review", "tiny", "tour"]
    assert cost["review"].invocations == 2
    # Tiny bodies never beat the 50-token summary: fork never pays.
    assert cost["tiny"].break_even_turns is None
    tour = MODEL.decision(CATALOG["tour"], remaining_turns=1, request="tour please")
    assert (
        cost["tour"].break_even_turns
        == (400 + tour.body_tokens + tour.request_tokens + 100 + 50) // (tour.body_tokens - 50) + 1
    )
