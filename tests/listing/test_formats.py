"""Exact text of every profile on hand-made skills."""

from __future__ import annotations

from dataclasses import replace

import pytest

from skillbench.agentspec import AGENT_SPECS
from skillbench.catalog import Skill
from skillbench.listing import PROFILES, render_listing

SEED_LISTING = """\
<system-reminder>
## Skills
The following skills are available for use with the Skill tool:
- review [scope]: Review changes for bugs, regressions, risks, and missing tests.
when: Use when the user asks for code review, patch review, or a merge-readiness check.
- refactor [scope]: Improve code structure while preserving behavior.
IMPORTANT: Only use Skill for skills listed above - do not guess or use built-in CLI commands.
</system-reminder>"""


def test_codebot_matches_seed(seed_skills: list[Skill]) -> None:
    listing = render_listing(seed_skills, scores={"review": 2.0})
    assert listing.text == SEED_LISTING
    assert listing.used == len(SEED_LISTING) - len(
        "<system-reminder>\n## Skills\n\n</system-reminder>"
    )
    assert [(e.name, e.status, e.position) for e in listing.entries] == [
        ("review", "full", 0),
        ("refactor", "full", 1),
        ("manual", "disabled", None),
    ]
    review = listing.entry("review")
    assert review is not None and review.chars == len(
        "- review [scope]: Review changes for bugs, regressions, risks, and missing tests.\n"
        "when: Use when the user asks for code review, patch review, or a merge-readiness check."
    )


def test_codebot_caps_lines_with_ellipsis() -> None:
    skill = Skill("x", "d" * 300, when_to_use="w" * 300)
    listing = render_listing([skill])
    line, when = listing.text.splitlines()[3:5]
    assert len(line) == 220 and line.endswith("d…") and line.startswith("- x: ddd")
    assert len(when) == 160 and when.startswith("when: www") and when.endswith("…")
    entry = listing.entries[0]
    assert entry.status == "truncated"
    assert entry.description == line[len("- x: ") :]
    assert entry.when == when[len("when: ") :]


def test_codebot_breaks_at_first_entry_over_budget() -> None:
    skills = [Skill("a", "short"), Skill("b", "x" * 200), Skill("c", "short")]
    listing = render_listing(skills, ordering="given", budget=200)
    assert [(e.name, e.status) for e in listing.entries] == [
        ("a", "full"),
        ("b", "dropped"),
        ("c", "dropped"),
    ]
    assert listing.used is not None and listing.used <= 200


def test_codebot_empty_when_nothing_fits(seed_skills: list[Skill]) -> None:
    listing = render_listing(seed_skills, budget=50)
    assert listing.text == "" and listing.used == 0 and listing.shown == ()


def test_codebot_usage_order_and_inactive() -> None:
    skills = [
        Skill("bundled-one", "b", source="bundled"),
        Skill("plugin-one", "p", source="plugin"),
        Skill("project-one", "q", source="project"),
        Skill("paths-one", "r", source="plugin", paths=("src/**",)),
        Skill("paths-off", "s", paths=("docs/**",)),
    ]
    listing = render_listing(skills, scores={"plugin-one": 0.5}, inactive={"paths-off"})
    assert listing.shown_names == ("paths-one", "plugin-one", "project-one", "bundled-one")
    assert listing.entry("paths-off").status == "inactive"  # type: ignore[union-attr]
    assert listing.position("project-one") == 2 and listing.position("paths-off") is None


def test_claude_code_format_and_name_only(seed_skills: list[Skill]) -> None:
    listing = render_listing(seed_skills, profile="claude-code", ordering="given")
    assert listing.budget == 30_000  # 1,000,000 tokens x 3 characters x 1%
    assert listing.text == (
        "The following skills are available for use with the Skill tool:\n\n"
        "- review: Review changes for bugs, regressions, risks, and missing tests. - Use when "
        "the user asks for code review, patch review, or a merge-readiness check.\n"
        "- refactor: Improve code structure while preserving behavior."
    )
    tight = render_listing(seed_skills, profile="claude-code", budget=80, scores={"refactor": 1.0})
    assert tight.text.splitlines()[2:4] == [
        "- refactor: Improve code structure while preserving behavior.",
        "- review",
    ]
    assert [(e.name, e.status) for e in tight.entries] == [
        ("refactor", "full"),
        ("review", "name_only"),
        ("manual", "disabled"),
    ]
    assert tight.used is not None and tight.used <= 80


def test_claude_code_options() -> None:
    assert (
        render_listing([Skill("a", "b")], profile="claude-code", options={"legacy": True}).budget
        == 15_000
    )
    older = {"context_window": 200_000, "chars_per_token": 4}
    assert render_listing([Skill("a", "b")], profile="claude-code", options=older).budget == 8000
    capped = render_listing([Skill("a", "x" * 2000)], profile="claude-code")
    assert capped.entries[0].status == "truncated"
    assert len(capped.entries[0].description) == 1536


def test_claude_code_drop_rules_differ() -> None:
    skills = [Skill("b-big", "x" * 60), Skill("a-small", "y" * 10), Skill("c-mid", "z" * 30)]
    budget = len("- b-big\n- a-small\n- c-mid") + 50  # room for 50 of the 106 description cells
    least = render_listing(skills, profile="claude-code", budget=budget, ordering="given")
    alpha = render_listing(
        skills,
        profile="claude-code",
        budget=budget,
        ordering="given",
        options={"drop_rule": "alpha_greedy"},
    )
    # least_used without scores walks the listing, skipping what does not fit (b-big: 62)
    assert [e.status for e in least.entries] == ["name_only", "full", "full"]
    scored = render_listing(
        skills, profile="claude-code", budget=budget, ordering="given", scores={"b-big": 1.0}
    )
    assert [e.status for e in scored.entries] == ["name_only", "full", "full"]
    first = render_listing(
        skills, profile="claude-code", budget=budget - 10, ordering="given", scores={"c-mid": 1.0}
    )
    assert [e.status for e in first.entries] == ["name_only", "name_only", "full"]
    assert [e.status for e in alpha.entries] == ["name_only", "full", "full"]


def test_openharness(seed_skills: list[Skill]) -> None:
    """OpenHarness 0.1.9: no budget, skills by name in code points (``refactor`` before
    ``review`` whatever the ordering), ``- **name**: description`` under its heading."""
    users = [replace(s, source="user") for s in seed_skills]
    listing = render_listing(
        users, profile="openharness", ordering="given", options={"snapshot": "none"}
    )
    assert listing.budget is None and listing.used is None
    assert listing.text == (
        "# Available Skills\n\n"
        "The following skills are available via the `skill` tool. When a user's request "
        'matches a skill, invoke it with `skill(name="<skill_name>")` to load detailed '
        "instructions before proceeding. User-invocable skills can also be run directly by "
        "the user as `/<skill-name>`.\n\n"
        "- **refactor**: Improve code structure while preserving behavior.\n"
        "- **review**: Review changes for bugs, regressions, risks, and missing tests."
    )


def test_multiline_descriptions_become_one_line() -> None:
    listing = render_listing([Skill("a", "first line\n  second\tline")])
    assert "- a: first line second line" in listing.text


def test_registry_lists_profiles_and_rejects_typos() -> None:
    agents = AGENT_SPECS.values()
    releases = {f"{s.name}@{r.version}" for s in agents for r in s.releases}
    expected = {"codebot", "openharness"} | {s.name for s in agents} | releases
    assert PROFILES.names() == sorted(expected)
    assert {"claude-code@2.1.328", "codex@0.171.0", "qwen-code@0.24.4"} <= releases
    with pytest.raises(Exception, match="did you mean 'codex'"):
        render_listing([], profile="codx")
    with pytest.raises(Exception, match="no option 'nope'"):
        render_listing([], profile="codebot", options={"nope": 1})
