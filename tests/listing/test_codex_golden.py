"""Codex 0.169.0 listings derived by hand from the rules its captured requests follow.

The block is ``<skills_instructions>``, ``## Skills``, the opening sentence, a ``### Skill
roots`` table (``- `rN` = `ROOT```), ``### Available skills`` and one
``- name: description (file: rN/…)`` line per skill, each section on its own line. Skills are
ordered by scope (system, admin, repo, user), then name. A line costs its characters plus a
newline (or, with a context window, ceil(UTF-8 bytes / 4) tokens of 2% of the window). Both
an absolute-path variant and the aliased one are rendered; the aliased one wins when it shows
more skills, cuts fewer characters or costs less. Here the roots table never costs anything:
the aliased framing (sentence 261 characters + ``### Skill roots`` line + root lines, under
100 characters) is shorter than the 418-character sentence of the absolute variant.
"""

from __future__ import annotations

from skillbench.catalog import Skill, SourceKind
from skillbench.listing import AgentSnapshot, BuiltinSkill, render_listing
from skillbench.listing._codex import CLOSE_TAG, INTRO_ALIASES, OPEN_TAG

CHARACTERS = {"context_window": None}


def skill(name: str, desc: str, source: SourceKind = "project") -> Skill:
    return Skill(
        name, desc, source=source, path=f"/clone/{name}/SKILL.md", rel_path=f"{name}/SKILL.md"
    )


def block(roots: list[str], lines: list[str]) -> str:
    table = [f"- `r{i}` = `{root}`" for i, root in enumerate(roots)]
    parts = ["## Skills", INTRO_ALIASES, "### Skill roots", *table, "### Available skills"]
    return OPEN_TAG + "\n" + "\n".join([*parts, *lines]) + "\n" + CLOSE_TAG


def test_stage1_scope_then_name_with_one_alias_per_root() -> None:
    four = [
        skill("beta", "abcdef"),
        skill("zed", "z", "user"),
        skill("alpha", "uvwxyz"),
        skill("sys", "s", "bundled"),
    ]
    listing = render_listing(four, profile="codex", options=CHARACTERS)
    # Roots are numbered user roots first, then the system folder, then the project's.
    assert listing.text == block(
        ["~/.agents/skills", "~/.codex/skills/.system", ".agents/skills"],
        [
            "- sys: s (file: r1/sys/SKILL.md)",
            "- alpha: uvwxyz (file: r2/alpha/SKILL.md)",
            "- beta: abcdef (file: r2/beta/SKILL.md)",
            "- zed: z (file: r0/zed/SKILL.md)",
        ],
    )
    assert {e.status for e in listing.entries} == {"full"}
    assert listing.warning is None


def test_default_budget_is_two_percent_of_the_default_models_window_in_tokens() -> None:
    # 0.169.0's default model (gpt-6.1-sol) has 272,000 tokens; 0.171.0's (gpt-6.2-sol)
    # 500,000, and plain ``codex`` is the newest verified release.
    assert render_listing([skill("a", "b")], profile="codex@0.169.0").budget == 5440
    assert render_listing([skill("a", "b")], profile="codex@0.171.0").budget == 10000
    assert render_listing([skill("a", "b")], profile="codex").budget == 10000
    assert render_listing([skill("a", "b")], profile="codex", options=CHARACTERS).budget == 8000


def test_stage2_shares_description_characters_round_robin() -> None:
    # Bare aliased lines: "- alpha: (file: r0/alpha/SKILL.md)" 34 + 1, "- beta: (file:
    # r0/beta/SKILL.md)" 32 + 1: 68. Budget 74 leaves 6: the first character costs 2 (": x"
    # replaces ":"), later ones 1: alpha 2, beta 2, alpha 1, beta 1 -> "uv", "ab".
    pair = [skill("beta", "abcdef"), skill("alpha", "uvwxyz")]
    listing = render_listing(pair, profile="codex", budget=74, options=CHARACTERS)
    assert listing.text == block(
        [".agents/skills"],
        ["- alpha: uv (file: r0/alpha/SKILL.md)", "- beta: ab (file: r0/beta/SKILL.md)"],
    )
    assert [e.status for e in listing.entries] == ["truncated", "truncated"]


def test_token_budget_from_the_context_window() -> None:
    # Window 800 -> 16 tokens. The bare line "- long-skill: (file: r0/long-skill/SKILL.md)"
    # is 45 bytes with its newline: 12 tokens, 4 left. With k characters it is 46 + k bytes;
    # k = 18 gives 64 bytes = 16 tokens, k = 19 would need 17 -> 18 characters.
    long = Skill("long-skill", "a" * 1000, source="user", rel_path="long-skill/SKILL.md")
    listing = render_listing([long], profile="codex", options={"context_window": 800})
    assert listing.budget == 16
    assert listing.text == block(
        ["~/.agents/skills"], ["- long-skill: " + "a" * 18 + " (file: r0/long-skill/SKILL.md)"]
    )


def test_stage3_names_until_the_budget_is_used_then_omitted() -> None:
    # Bare lines cost 27, 29 and 31 (87 > 60): a and bb fit (56), ccc does not.
    three = [skill(n, "x" * 50) for n in ("ccc", "bb", "a")]
    listing = render_listing(three, profile="codex", budget=60, options=CHARACTERS)
    assert listing.text == block(
        [".agents/skills"], ["- a: (file: r0/a/SKILL.md)", "- bb: (file: r0/bb/SKILL.md)"]
    )
    assert listing.entry("ccc") is None or listing.entry("ccc").status == "dropped"  # type: ignore[union-attr]
    assert listing.warning == (
        "Exceeded skills context budget. All skill descriptions were removed and 1 additional "
        "skill was not included in the model-visible skills list."
    )


def test_description_over_1024_characters_is_cut_with_three_dots() -> None:
    listing = render_listing([skill("big", "d" * 1030)], profile="codex", options=CHARACTERS)
    assert "- big: " + "d" * 1021 + "... (file: r0/big/SKILL.md)" in listing.text


def test_system_skills_from_a_snapshot_come_first_and_share_the_budget() -> None:
    snapshot = AgentSnapshot(
        "codex", "0.169.0", (BuiltinSkill("helper", "Our test text.", path="helper/SKILL.md"),)
    )
    options = {**CHARACTERS, "snapshot": snapshot}
    listing = render_listing([skill("alpha", "A.")], profile="codex", options=options)
    assert listing.text == block(
        ["~/.codex/skills/.system", ".agents/skills"],
        [
            "- helper: Our test text. (file: r0/helper/SKILL.md)",
            "- alpha: A. (file: r1/alpha/SKILL.md)",
        ],
    )
    assert listing.shown_names == ("alpha",)


def test_roots_option_names_the_real_folders() -> None:
    options = {**CHARACTERS, "roots": {"project": "/home/me/repo/.agents/skills"}}
    listing = render_listing([skill("alpha", "A.")], profile="codex", options=options)
    assert "- `r0` = `/home/me/repo/.agents/skills`\n" in listing.text


def test_skills_declared_only_in_skill_json_are_not_listed() -> None:
    declared = Skill("api", "Api.", path="/clone/api/skill.json", rel_path="api/skill.json")
    listing = render_listing([declared, skill("alpha", "A.")], profile="codex")
    assert listing.shown_names == ("alpha",)


def test_a_name_that_differs_from_its_folder_keeps_the_folder_in_the_path() -> None:
    named = Skill("alpha-named", "A.", path="/c/folder-a/SKILL.md", rel_path="folder-a/SKILL.md")
    listing = render_listing([named], profile="codex", options=CHARACTERS)
    assert listing.text == block(
        [".agents/skills"], ["- alpha-named: A. (file: r0/folder-a/SKILL.md)"]
    )


def test_two_skills_of_one_name_are_both_listed_repo_scope_first() -> None:
    user = skill("dup", "Dup in user.", "user")
    repo = skill("dup", "Dup in project.")
    listing = render_listing([user, repo], profile="codex", options=CHARACTERS)
    assert listing.text == block(
        ["~/.agents/skills", ".agents/skills"],
        [
            "- dup: Dup in project. (file: r1/dup/SKILL.md)",
            "- dup: Dup in user. (file: r0/dup/SKILL.md)",
        ],
    )
