"""``ListingPlan.render(only=…)``: a retrieve stage lists its top k as a smaller catalog."""

from __future__ import annotations

import pytest

from skillbench.catalog import Skill
from skillbench.listing import ListingPlan, render_listing

SKILLS = [
    Skill(f"skill-{i:02d}", f"Does thing number {i} " + "x" * 60, source="user") for i in range(20)
]
SKILLS[4] = Skill("skill-04", "Only by hand.", disable_model_invocation=True)
SKILLS[9] = Skill("skill-09", "Fires for python files.", paths=("**/*.py",))
SCORES = {"skill-17": 5.0, "skill-03": 1.0, "skill-12": 0.5}


@pytest.mark.parametrize("profile", ["codebot", "claude-code", "codex", "openharness"])
@pytest.mark.parametrize("ordering", ["usage", "alpha", "rotate:2"])
@pytest.mark.parametrize("budget", [None, 300])
def test_subset_listing_equals_rendering_only_those_skills(
    profile: str, ordering: str, budget: int | None
) -> None:
    plan = ListingPlan(
        SKILLS, profile=profile, budget=budget, ordering=ordering, inactive={"skill-09"}
    )
    only = (17, 2, 12, 5)  # a retrieval's rank order: the ordering decides the listing's
    listing = plan.render(SCORES, only=only)
    alone = render_listing(
        [SKILLS[i] for i in sorted(only)],
        profile=profile,
        budget=budget,
        ordering=ordering,
        scores=SCORES,
    )
    assert listing.text == alone.text
    assert listing.shown_names == alone.shown_names
    assert sorted(e.name for e in listing.entries) == sorted(SKILLS[i].name for i in only)
    # The full listing is untouched by subset renders.
    assert plan.render(SCORES) == render_listing(
        SKILLS,
        profile=profile,
        budget=budget,
        ordering=ordering,
        scores=SCORES,
        inactive={"skill-09"},
    )


def test_listable_leaves_out_disabled_and_inactive_skills() -> None:
    plan = ListingPlan(SKILLS, inactive={"skill-09"})
    assert plan.listable == tuple(i for i in range(20) if i not in (4, 9))
