"""Codex listings derived by hand from ``codex-rs/core-skills/src/render.rs`` (openai/codex at
commit 0899b7c4), one test per overflow stage.

References are to that file. The body layout is ``render_available_skills_body`` (lines
62-84); the budget is ``default_skill_metadata_budget`` (lines 143-158: 2% of the window in
tokens, at least 1, else 8,000 characters); costs are ``SkillMetadataBudget::cost`` and
``cost_from_counts`` (lines 99-111: characters, or ``approx_token_count_from_bytes``, lines
114-116, ceil(bytes / 4)), and a line costs itself plus its newline (``line_cost``). Skills
are sorted by scope (system, admin, repo, user), name, path (``ordered_skills_for_budget``
with ``prompt_scope_rank``); stage 1 and the choice of stage are
``render_skill_lines_from_lines``; stage 2 hands out description characters round-robin
(``render_lines_with_description_budget`` with ``DescriptionBudgetLine::new`` for the
per-character costs); stage 3 keeps bare lines that still fit
(``render_minimum_skill_lines_until_budget``); warnings are built in
``build_available_skills_from_lines``; aliases in ``build_aliased_available_skills`` and
``aliased_render_is_better``.
"""

from __future__ import annotations

from pathlib import Path

from skillbench.catalog import Skill, SourceKind
from skillbench.listing import render_listing

GOLDEN = Path(__file__).parent / "golden"


def skill(name: str, desc: str, source: SourceKind = "project") -> Skill:
    return Skill(
        name, desc, source=source, path=f"/clone/{name}/SKILL.md", rel_path=f"{name}/SKILL.md"
    )


def cost(*lines: str) -> int:
    """Character cost of skill lines: each line plus its newline."""
    return sum(len(line) + 1 for line in lines)


def skill_lines(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[lines.index("### Available skills") + 1 : lines.index("### How to use skills")]


FOUR = [
    skill("beta", "abcdef"),
    skill("zed", "z", "user"),
    skill("alpha", "uvwxyz"),
    skill("sys", "s", "bundled"),
]
FULL_LINES = [
    "- sys: s (file: ~/.codex/skills/.system/sys/SKILL.md)",
    "- alpha: uvwxyz (file: .agents/skills/alpha/SKILL.md)",
    "- beta: abcdef (file: .agents/skills/beta/SKILL.md)",
    "- zed: z (file: ~/.codex/skills/zed/SKILL.md)",
]


def test_stage1_everything_in_full_sorted_by_scope_then_name() -> None:
    # Exactly the cost of the four full lines: stage 1 still fits (``full_cost <= budget.limit()``).
    listing = render_listing(FOUR, profile="codex", budget=cost(*FULL_LINES), ordering="alpha")
    assert listing.text == (GOLDEN / "codex_stage1.txt").read_text(encoding="utf-8")
    assert listing.shown_names == ("sys", "alpha", "beta", "zed")
    assert {e.status for e in listing.entries} == {"full"}
    assert listing.warning is None
    assert listing.used == cost(*FULL_LINES)


def test_default_budget_is_8000_characters_without_a_window() -> None:
    assert render_listing(FOUR, profile="codex").budget == 8000


def test_stage2_even_trimming() -> None:
    # Bare lines cost floor; 6 characters left. The first description character costs 2
    # (": x" replaces ":"), later ones 1. Round-robin in listing order: alpha 2 (4 left),
    # beta 2 (2 left), alpha 1, beta 1 -> "uv", "ab".
    pair = [skill("beta", "abcdef"), skill("alpha", "uvwxyz")]
    floor = cost(
        "- alpha: (file: .agents/skills/alpha/SKILL.md)",
        "- beta: (file: .agents/skills/beta/SKILL.md)",
    )
    listing = render_listing(pair, profile="codex", budget=floor + 6)
    assert skill_lines(listing.text) == [
        "- alpha: uv (file: .agents/skills/alpha/SKILL.md)",
        "- beta: ab (file: .agents/skills/beta/SKILL.md)",
    ]
    assert [e.status for e in listing.entries] == ["truncated", "truncated"]
    assert listing.warning is None  # 8 characters cut over 2 skills: average 4 <= 100


def test_stage2_reuses_slack_of_short_descriptions() -> None:
    # 11 left: long 2 (9), short 2 (7, its one character done), long takes the other 7.
    pair = [skill("short-skill", "x"), skill("long-skill", "abcdefghi")]
    floor = cost(
        "- long-skill: (file: .agents/skills/long-skill/SKILL.md)",
        "- short-skill: (file: .agents/skills/short-skill/SKILL.md)",
    )
    listing = render_listing(pair, profile="codex", budget=floor + 11)
    assert skill_lines(listing.text) == [
        "- long-skill: abcdefgh (file: .agents/skills/long-skill/SKILL.md)",
        "- short-skill: x (file: .agents/skills/short-skill/SKILL.md)",
    ]
    assert [e.status for e in listing.entries] == ["truncated", "full"]


def test_stage2_warns_when_average_cut_exceeds_100_characters() -> None:
    # 49 left: the long description gets 1 + 47 = 48 characters; 202 cut over 2 skills is an
    # average of 101 > 100 (``average_truncated_description_chars``), under a character
    # budget (no "2%").
    pair = [skill("long-skill", "a" * 250), skill("empty-skill", "")]
    floor = cost(
        "- empty-skill: (file: .agents/skills/empty-skill/SKILL.md)",
        "- long-skill: (file: .agents/skills/long-skill/SKILL.md)",
    )
    listing = render_listing(pair, profile="codex", budget=floor + 49)
    assert len(listing.entry("long-skill").description) == 48  # type: ignore[union-attr]
    assert listing.warning == (
        "Skill descriptions were shortened to fit the skills context budget. Codex can still "
        "see every skill, but some descriptions are shorter. Disable unused skills or plugins "
        "to leave more room for the rest."
    )


def test_token_budget_from_context_window() -> None:
    # Window 800 -> Tokens(16). The bare line below is 57 characters, 58 bytes with its
    # newline: ceil(58 / 4) = 15 tokens, 1 left. With k description characters the line is
    # 59 + k bytes: k = 1 costs 0 more, k = 2..5 cost 1 (ceil(61..64 / 4) = 16), k = 6 costs
    # 2 -> five characters. 995 cut: the warning names the 2% budget.
    long = Skill("long-skill", "a" * 1000, source="user", rel_path="long-skill/SKILL.md")
    listing = render_listing([long], profile="codex", options={"context_window": 800})
    assert listing.budget == 16
    assert skill_lines(listing.text) == [
        "- long-skill: aaaaa (file: ~/.codex/skills/long-skill/SKILL.md)"
    ]
    assert listing.warning == (
        "Skill descriptions were shortened to fit the 2% skills context budget. Codex can "
        "still see every skill, but some descriptions are shorter. Disable unused skills or "
        "plugins to leave more room for the rest."
    )


def test_stage3_names_in_scope_order_until_the_budget_is_used() -> None:
    four = [
        skill("system-skill", "desc", "bundled"),
        skill("user-skill", "desc", "user"),
        skill("repo-skill", "desc", "project"),
        skill("admin-skill", "desc", "managed"),
    ]
    kept = [
        "- system-skill: (file: ~/.codex/skills/.system/system-skill/SKILL.md)",
        "- admin-skill: (file: /etc/codex/skills/admin-skill/SKILL.md)",
    ]
    listing = render_listing(four, profile="codex", budget=cost(*kept))
    assert skill_lines(listing.text) == kept
    assert [(e.name, e.status) for e in listing.entries] == [
        ("system-skill", "name_only"),
        ("admin-skill", "name_only"),
        ("user-skill", "dropped"),
        ("repo-skill", "dropped"),
    ]
    assert listing.warning == (
        "Exceeded skills context budget. All skill descriptions were removed and 2 additional "
        "skills were not included in the model-visible skills list."
    )


def test_stage3_keeps_scanning_after_an_oversized_line() -> None:
    big = skill("oversized-system-skill", "desc " * 100, "bundled")
    repo = skill("repo-skill", "desc")
    budget = cost("- repo-skill: desc (file: .agents/skills/repo-skill/SKILL.md)")
    listing = render_listing([big, repo], profile="codex", budget=budget)
    assert skill_lines(listing.text) == ["- repo-skill: (file: .agents/skills/repo-skill/SKILL.md)"]
    assert listing.warning == (
        "Exceeded skills context budget. All skill descriptions were removed and 1 additional "
        "skill was not included in the model-visible skills list."
    )


def test_short_path_aliases_when_they_show_more() -> None:
    # Twelve skills under one 90-character root. Each aliased line is 88 characters shorter
    # (``r0`` for the root): 12 x 88 = 1,056 saved, far more than the roots table costs (the
    # longer intro and how-to text plus "### Skill roots" and one root line: a few hundred).
    # One character short of the absolute full listing, the absolute rendering must cut a
    # description; the aliased one fits in full, so it is kept (``aliased_render_is_better``).
    root = "/home/someone/work/" + "x" * 48 + "/project/.agents/skills"
    assert len(root) == 90
    skills = [skill(f"skill-{i:02}", "d") for i in range(12)]
    full = [f"- skill-{i:02}: d (file: {root}/skill-{i:02}/SKILL.md)" for i in range(12)]
    listing = render_listing(
        skills, profile="codex", budget=cost(*full) - 1, options={"roots": {"project": root}}
    )
    lines = listing.text.splitlines()
    assert lines[1:5] == [
        "## Skills",
        "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
        "Below is the list of skills that can be used. Each entry includes a name, description, "
        "and a short path that can be expanded into an absolute path using the skill roots table.",
        "### Skill roots",
        f"- `r0` = `{root}`",
    ]
    assert skill_lines(listing.text) == [
        f"- skill-{i:02}: d (file: r0/skill-{i:02}/SKILL.md)" for i in range(12)
    ]
    assert lines[-2] == (
        "- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear "
        "instructions), state the issue, pick the next-best approach, and continue."
    )
    assert {e.status for e in listing.entries} == {"full"}
    assert listing.warning is None


def test_no_aliases_without_budget_pressure() -> None:
    listing = render_listing(FOUR, profile="codex")
    assert "### Skill roots" not in listing.text


def test_paths_skills_are_not_put_first_and_order_is_codex_own() -> None:
    gated = Skill("a-gated", "g", source="user", paths=("*.tf",), rel_path="a-gated/SKILL.md")
    listing = render_listing([*FOUR, gated], profile="codex", ordering="usage")
    assert listing.shown_names == ("sys", "alpha", "beta", "a-gated", "zed")
