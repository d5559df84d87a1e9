"""Property tests over random catalogs, budgets, orderings and usage scores."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillbench.catalog import SOURCE_KINDS, Skill
from skillbench.listing import Listing, ListingPlan, get_ordering, render_listing

PROFILES = ["codebot", "claude-code", "codex"]
ORDERINGS = ["usage", "alpha", "source", "given", "random", "reverse", "rotate:3", "rotate:-1"]
SCORED = {"codebot", "claude-code"}
CODEX_SCOPE = {"bundled": 0, "managed": 1, "project": 2, "user": 3, "plugin": 3, "extra": 3}
"""Codex's prompt order of scopes: system, admin, repo, user (plugin and extra load as user)."""


NAMES = [
    f"{w}-{i}"
    for i, w in enumerate(["review", "refactor", "debug", "Test", "lint", "a", "b", "zz"] * 4)
]
text = st.text(st.sampled_from("abcdefgh  \n\té…-:*"), max_size=160)


@st.composite
def catalogs(draw: st.DrawFn) -> list[Skill]:
    names = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=20))
    return [
        Skill(
            name,
            draw(text),
            when_to_use=draw(st.none() | text),
            argument_hint=draw(st.none() | st.sampled_from(["[scope]", "<file>"])),
            source=draw(st.sampled_from(SOURCE_KINDS)),
            paths=draw(st.sampled_from([(), ("src/**",)])),
            disable_model_invocation=draw(st.booleans().map(lambda b: b and draw(st.booleans()))),
            path=draw(st.none() | st.just(f"/skills/{name}/SKILL.md")),
        )
        for name in names
    ]


@st.composite
def cases(draw: st.DrawFn) -> dict:
    skills = draw(catalogs())
    names = [s.name for s in skills]
    score = st.sampled_from([0.0, 0.5, 1.0, 2.0]) | st.floats(-1, 50, allow_nan=False)
    scores = draw(st.dictionaries(st.sampled_from([*names, "ghost"]), score)) if names else {}
    return {
        "skills": skills,
        "profile": draw(st.sampled_from(PROFILES)),
        "budget": draw(st.none() | st.integers(0, 3000)),
        "ordering": draw(st.sampled_from(ORDERINGS)),
        "scores": scores,
        "inactive": frozenset(n for n in names if draw(st.integers(0, 5)) == 0),
        "seed": draw(st.integers(0, 3)),
        "options": draw(st.sampled_from([{}, {"legacy": True}, {"drop_rule": "alpha_greedy"}]))
        if draw(st.booleans())
        else {},
    }


def _render(case: dict) -> Listing:
    options = case["options"] if case["profile"] == "claude-code" else {}
    args = {k: v for k, v in case.items() if k not in ("scores", "options")}
    return render_listing(**args, scores=case["scores"], options=options)


def _expected_order(case: dict) -> list[str]:
    listable = [
        s
        for s in case["skills"]
        if not s.disable_model_invocation and s.name not in case["inactive"]
    ]
    if case["profile"] == "codex":
        return [s.name for s in sorted(listable, key=lambda s: (CODEX_SCOPE[s.source], s.name))]
    scores: Mapping[str, float] = case["scores"] if case["profile"] in SCORED else {}
    perm = get_ordering(case["ordering"]).order(listable, scores, case["seed"])
    return [listable[i].name for i in perm]


def _is_subsequence(part: tuple[str, ...], whole: list[str]) -> bool:
    it = iter(whole)
    return all(name in it for name in part)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_listing_invariants(case: dict) -> None:
    listing = _render(case)
    shown = listing.shown
    # within budget: whatever the profile counts never exceeds it, except that Claude Code
    # keeps every name even when the names alone overflow
    names_only = all(e.status == "name_only" for e in shown)
    if listing.budget is not None:
        assert listing.used is not None
        assert listing.used <= listing.budget or (case["profile"] == "claude-code" and names_only)
    assert (listing.used or 0) <= listing.chars
    # every catalog skill exactly once; positions 0..k-1 in order; names agree
    assert [e.name for e in listing.entries if not e.shown] == [
        s.name for s in case["skills"] if s.name not in listing.shown_names
    ]
    assert sorted(e.name for e in listing.entries) == sorted(s.name for s in case["skills"])
    assert [e.position for e in shown] == list(range(len(shown)))
    assert tuple(e.name for e in shown) == listing.shown_names
    for e in listing.entries:
        if e.skill.disable_model_invocation:
            assert e.status == "disabled"
        elif e.name in case["inactive"]:
            assert e.status == "inactive"
        if e.shown:
            assert e.name in listing.text and 0 < e.chars <= listing.chars
        else:
            assert e.position is None
    order = _expected_order(case)
    if case["profile"] == "codex":
        # Codex renders its block, possibly with no skill line left, whenever a skill is listable
        assert bool(order) == bool(listing.text)
    else:
        assert bool(shown) == bool(listing.text)
    assert _is_subsequence(listing.shown_names, order)
    if case["profile"] == "codebot" or (
        case["profile"] == "claude-code" and case["options"].get("legacy")
    ):
        assert list(listing.shown_names) == order[: len(shown)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_plan_matches_plain_renderer(case: dict) -> None:
    options = case["options"] if case["profile"] == "claude-code" else {}
    plan = ListingPlan(
        case["skills"],
        profile=case["profile"],
        budget=case["budget"],
        ordering=case["ordering"],
        inactive=case["inactive"],
        seed=case["seed"],
        options=options,
    )
    assert plan.render(case["scores"]) == _render(case)
    assert plan.render({}) == _render({**case, "scores": {}})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.data())
def test_plan_follows_scores_changed_in_place(case: dict, data: st.DataObject) -> None:
    """One plan rendered after each of a series of small in-place score updates (the replay's
    pattern, which the plan maintains incrementally) still matches a fresh render."""
    names = [s.name for s in case["skills"]] + ["ghost"]
    plan = ListingPlan(case["skills"], profile="codebot", budget=case["budget"])
    scores = dict(case["scores"])
    value = st.sampled_from([0.0, 1.0, 3.0]) | st.floats(-1, 50, allow_nan=False)
    for _ in range(data.draw(st.integers(1, 6))):
        for name in data.draw(st.lists(st.sampled_from(names), max_size=3)):
            if data.draw(st.booleans()) and name in scores:
                del scores[name]
            else:
                scores[name] = data.draw(value)
        expected = render_listing(case["skills"], budget=case["budget"], scores=scores)
        assert plan.render(scores) == expected
