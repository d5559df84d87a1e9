"""Token counts against litellm's tokenizer, break-even arithmetic and prices from the cost map."""

from __future__ import annotations

import pytest

from skillbench._errors import SkillbenchError
from skillbench.catalog import Skill
from skillbench.cost import (
    CostModel,
    DecisionCost,
    break_even_turns,
    pricing_for,
    recommend,
    skill_costs,
)
from skillbench.tokens import litellm_offline

BODY = "Review the diff for bugs.\nScope: $ARGUMENTS\nThen list missing tests in ${SKILL_DIR}."


def litellm_tokens(text: str, model: str = "gpt-4o") -> int:
    return int(litellm_offline().token_counter(model=model, text=text))


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-3.5-turbo"])
def test_body_tokens_match_litellm_on_the_hand_expanded_text(model: str) -> None:
    skill = Skill(name="review", description="d", body=BODY, path="/skills/review/SKILL.md")
    expected_text = (
        '<skill name="review">\nReview the diff for bugs.\nScope: api/\n'
        "Then list missing tests in /skills/review.\n</skill>"
    )
    cost = CostModel(model=model).decision(skill, remaining_turns=3, args="api/", request="hi")
    assert cost.body_tokens == litellm_tokens(expected_text, model)
    assert cost.request_tokens == litellm_tokens("hi", model)
    assert cost.inline_tokens == 3 * litellm_tokens(expected_text, model)


def test_fork_tokens_add_prompt_work_and_carried_summary() -> None:
    skill = Skill(name="tour", description="d", body="Explore the repository.", context="fork")
    model = CostModel(fork_system_prompt_tokens=500, fork_work_tokens=300, summary_tokens=50)
    cost = model.decision(skill, remaining_turns=4, request="show me around")
    body = litellm_tokens('<skill name="tour">\nExplore the repository.\n</skill>')
    request = litellm_tokens("show me around")
    assert cost.fork_tokens == 500 + body + request + 300 + 50 + 50 * 4
    assert cost.fork_main_tokens == 200
    assert cost.declared_tokens == cost.fork_tokens
    assert cost.main_tokens("inline") == cost.inline_tokens == body * 4


def decision(body: int, *, summary: int = 200, system: int = 1000, work: int = 1000, request=0):
    return DecisionCost(
        body_tokens=body,
        request_tokens=request,
        remaining_turns=1,
        declared="inline",
        system_tokens=system,
        work_tokens=work,
        summary_tokens=summary,
    )


def test_break_even_hand_computed() -> None:
    # K = 1000 + 1000 + 0 + 1000 + 200 = 3200, gain = 1000 - 200 = 800 → 3200 // 800 + 1 = 5:
    # at 4 turns fork 3200 + 800 = 4000 equals inline 4000 (not cheaper); at 5, 4200 < 5000.
    cost = decision(1000)
    assert break_even_turns(cost) == 5
    # K = 100 + 600 + 50 + 0 + 100 = 850, gain = 500 → 850 // 500 + 1 = 2
    assert break_even_turns(decision(600, summary=100, system=100, work=0, request=50)) == 2
    assert break_even_turns(decision(200)) is None  # body no larger than the summary
    assert break_even_turns(decision(150)) is None


def test_break_even_is_exactly_where_fork_gets_cheaper() -> None:
    from dataclasses import replace

    for body in (250, 401, 999, 3000):
        cost = decision(body, request=17)
        turns = break_even_turns(cost)
        assert turns is not None
        at = replace(cost, remaining_turns=turns)
        before = replace(cost, remaining_turns=turns - 1)
        assert at.fork_tokens < at.inline_tokens
        assert before.fork_tokens >= before.inline_tokens


def test_recommendation_follows_the_horizon() -> None:
    cost = decision(1000)
    assert recommend(cost, 4) == "inline"
    assert recommend(cost, 5) == "fork"
    assert recommend(decision(100), 1000) == "inline"


def test_prices_come_from_litellm_cost_map() -> None:
    entry = litellm_offline().model_cost["claude-sonnet-4-5"]
    pricing = pricing_for("claude-sonnet-4-5")
    assert pricing.input == entry["input_cost_per_token"]
    assert pricing.output == entry["output_cost_per_token"]
    assert pricing.cache_read == entry["cache_read_input_token_cost"]
    assert pricing.cache_write == entry["cache_creation_input_token_cost"]
    assert pricing_for("anthropic/claude-sonnet-4-5") == pricing


def test_unknown_model_is_a_user_error() -> None:
    with pytest.raises(SkillbenchError, match="no token prices"):
        pricing_for("no-such-model-xyz")


def test_dollars_with_and_without_cache() -> None:
    pricing = pricing_for("claude-sonnet-4-5")
    cost = DecisionCost(
        body_tokens=1000,
        request_tokens=10,
        remaining_turns=4,
        declared="inline",
        system_tokens=500,
        work_tokens=300,
        summary_tokens=200,
    )
    assert cost.dollars(pricing, "inline") == pytest.approx(4000 * 3e-6)
    assert cost.dollars(pricing, "inline", cache=True) == pytest.approx(
        1000 * 3.75e-6 + 3000 * 3e-7
    )
    fork = (500 + 1000 + 10 + 300) * 3e-6 + 200 * 15e-6 + 800 * 3e-6
    assert cost.dollars(pricing, "fork") == pytest.approx(fork)
    fork_cached = (500 + 1000 + 10 + 300) * 3e-6 + 200 * 15e-6 + 200 * 3.75e-6 + 600 * 3e-7
    assert cost.dollars(pricing, "fork", cache=True) == pytest.approx(fork_cached)


def test_openai_cache_write_costs_plain_input() -> None:
    pricing = pricing_for("gpt-4o")
    assert pricing.cache_write is None and pricing.cached
    assert pricing.carried(100, 3, cache=True) == pytest.approx(100 * 2.5e-6 + 200 * 1.25e-6)


def test_denied_call_costs_its_refusal_in_both_modes() -> None:
    skill = Skill(name="deploy", description="d", body="x" * 5000, disable_model_invocation=True)
    cost = CostModel().decision(skill, remaining_turns=3)
    assert cost.denied and 0 < cost.body_tokens < 60
    assert cost.inline_tokens == cost.fork_tokens == cost.body_tokens * 3
    assert break_even_turns(cost) is None


def test_skill_table_runs_user_only_skills_through_the_user_path() -> None:
    skills = [
        Skill(name="deploy", description="d", body="Ship it.", disable_model_invocation=True),
        Skill(name="big", description="d", body="word " * 2000, context="fork"),
    ]
    rows = skill_costs(skills, CostModel(), pricing_for("gpt-4o"), horizon=10)
    assert [(r.via, r.verdict) for r in rows] == [("user", "keep inline"), ("model", "keep fork")]
    assert rows[0].body_tokens == litellm_tokens("Base directory for this skill: \n\nShip it.")
