"""why_not_shown: one reason per missing skill, from a rendered listing or a run's facts."""

from __future__ import annotations

import pytest

from skillbench.catalog import Skill
from skillbench.listing import render_listing, why_not_shown

SKILLS = [
    Skill("alpha", "A" * 60),
    Skill("bravo", "B" * 60),
    Skill("charlie", "C" * 60),
    Skill("delta", "D" * 60, paths=("*.tf",)),
    Skill("echo", "E" * 60, disable_model_invocation=True),
]


def test_a_rendered_listing_names_the_budget_cut_and_the_catalog_rules() -> None:
    listing = render_listing(
        SKILLS, profile="codebot", budget=300, ordering="alpha", inactive={"delta"}
    )
    assert listing.shown_names == ("alpha", "bravo")
    cut = why_not_shown("charlie", listing=listing)
    assert cut.reason == "budget"
    # charlie's line is "- charlie: " + 60 characters + newline = 71; with the listing's
    # used characters it would pass the budget, which is why it was cut
    assert listing.used is not None and listing.used + 71 > 300
    assert cut.why == (
        f"cut by the budget of 300 characters: it did not fit after the 2 shown entries, "
        f"{listing.used} characters used"
    )
    assert why_not_shown("delta", listing=listing).reason == "inactive"
    assert why_not_shown("echo", listing=listing).reason == "disabled"
    assert why_not_shown("foxtrot", listing=listing).reason == "not_loaded"
    with pytest.raises(ValueError, match="'alpha' was shown at position 0"):
        why_not_shown("alpha", listing=listing)


def test_a_runs_catalog_facts_give_the_same_reasons_without_a_listing() -> None:
    facts = {
        "statuses": {"delta": "inactive", "echo": "disabled"},
        "loaded": {"alpha", "bravo", "charlie", "delta", "echo"},
        "overridden": {"golf": "same name: project wins over user"},
    }
    assert why_not_shown("charlie", budget=2000, **facts).why == (
        "cut by the budget of 2,000 characters"
    )
    assert why_not_shown("charlie", budget=None, **facts).reason == "hidden"
    assert why_not_shown("delta", budget=2000, **facts).reason == "inactive"
    assert why_not_shown("echo", budget=2000, **facts).reason == "disabled"
    golf = why_not_shown("golf", budget=2000, **facts)
    assert (golf.reason, golf.why) == (
        "overridden",
        "overridden: same name: project wins over user",
    )
    assert why_not_shown("hotel", budget=2000, **facts).reason == "not_loaded"
