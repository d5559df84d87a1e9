"""``ListingPlan.uses_scores``: which plans can change with usage, and fixed plans render once."""

from __future__ import annotations

from typing import Any

import pytest

from skillbench.catalog import Skill
from skillbench.listing import ListingPlan, render_listing

SKILLS = [Skill(f"skill-{i}", f"Does thing number {i} " + "x" * 60) for i in range(12)]
SCORES = {"skill-11": 5.0, "skill-3": 1.0}


@pytest.mark.parametrize(
    ("profile", "ordering", "options", "expected"),
    [
        ("codebot", "usage", {}, True),
        ("codebot", "alpha", {}, False),
        ("codebot", "rotate:3", {}, False),
        ("claude-code", "usage", {}, True),
        ("claude-code", "alpha", {}, True),  # least_used drop rule reads scores
        ("claude-code", "alpha", {"drop_rule": "alpha_greedy"}, False),
        ("claude-code", "alpha", {"legacy": True}, False),
        ("codex", "usage", {}, False),
        ("openharness", "usage", {}, False),
    ],
)
def test_uses_scores_flags_plans_usage_can_change(
    profile: str, ordering: str, options: dict[str, Any], expected: bool
) -> None:
    # Budget 500 overflows every budgeted profile, so drop rules and breaks are in play.
    plan = ListingPlan(SKILLS, profile=profile, budget=500, ordering=ordering, options=options)
    assert plan.uses_scores is expected
    with_scores = render_listing(
        SKILLS, profile=profile, budget=500, ordering=ordering, options=options, scores=SCORES
    )
    without = render_listing(
        SKILLS, profile=profile, budget=500, ordering=ordering, options=options
    )
    # Claims of independence are checked; dependence shows on this catalog.
    assert (with_scores != without) is expected
    if not expected:
        assert plan.render(SCORES) is plan.render({}) == without
