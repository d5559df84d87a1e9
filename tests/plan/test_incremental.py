"""The planner's renders reuse one prepared catalog across budgets and usage scores (a
renderer's ``prepare``, ``ListingPlan.at_budget``, ``ListingPlan.layout``); at every step,
in any order of steps, they equal a fresh ``render_listing`` of the same catalog."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillbench.listing import PROFILES, ListingPlan, render_listing
from tests.listing.test_properties import catalogs

NAMES = sorted(PROFILES)
"""Every profile and release."""


@st.composite
def steps(draw: st.DrawFn) -> dict:
    skills = draw(catalogs())
    names = [s.name for s in skills] + ["ghost"]
    score = st.sampled_from([0.0, 0.1, 1.0, 2.0]) | st.floats(0, 50, allow_nan=False)
    budget = st.none() | st.integers(0, 3000) | st.sampled_from([10**9])
    return {
        "skills": skills,
        "profile": draw(st.sampled_from(NAMES)),
        "options": draw(st.sampled_from([{}, {"drop_rule": "alpha_greedy"}, {"legacy": True}])),
        "steps": draw(
            st.lists(st.tuples(budget, st.dictionaries(st.sampled_from(names), score)), max_size=6)
        ),
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps())
def test_every_step_equals_a_full_render(case: dict) -> None:
    profile = PROFILES.get(case["profile"])
    options = {k: v for k, v in case["options"].items() if k in profile.options}
    plan = ListingPlan(
        case["skills"], profile=case["profile"], ordering=profile.ordering, options=options
    )
    for budget, scores in case["steps"]:
        expected = render_listing(
            case["skills"],
            profile=case["profile"],
            budget=budget,
            ordering=profile.ordering,
            scores=scores,
            options=options,
        )
        step = plan.at_budget(budget)
        assert step.render(scores) == expected
        placed = step.layout(scores).placed
        shown = [(case["skills"][p.skill_index].name, p.status) for p in placed]
        assert shown == [(e.name, e.status) for e in expected.shown]
        assert step.layout(scores).text == expected.text
