"""Claude Code listings derived by hand from the rules verified against Claude Code 2.1.328.

The rules (docs/profiles/claude-code.md says how each was verified by capture): the block is
the header line, a blank line and one entry per line; the budget is ``floor(window ×
characters per token × fraction)`` (1,000,000 × 3 × 0.01 = 30,000 for the default model),
counts only the entries and their newlines, in terminal cells; past it every droppable entry
starts as its name and descriptions come back by usage score, highest first, skipping one
that does not fit; nothing is ever hidden by the budget. Every text below is this project's
own; the agent's built-ins come from a hand-made snapshot.
"""

from __future__ import annotations

import json
from pathlib import Path

from skillbench.catalog import Skill, load_catalog
from skillbench.listing import AgentSnapshot, BuiltinSkill, render_listing
from skillbench.listing._claude_code import FIXED_BUILTINS

HEADER = "The following skills are available for use with the Skill tool:\n"


def entries_of(text: str) -> list[str]:
    assert text.startswith(HEADER + "\n")
    return text[len(HEADER) + 1 :].split("\n")


def skill_md(root: Path, folder: str, front: str, body: str = "Body.\n") -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text(f"---\n{front}---\n{body}")


def test_budget_follows_the_model_window_and_fraction() -> None:
    one = [Skill("a", "b")]
    assert render_listing(one, profile="claude-code").budget == 30_000
    older = {"context_window": 200_000, "chars_per_token": 4}
    assert render_listing(one, profile="claude-code", options=older).budget == 8_000
    raised = render_listing(one, profile="claude-code", options={**older, "budget_fraction": 0.02})
    assert raised.budget == 16_000


def test_description_and_when_to_use_joined_and_capped() -> None:
    skill = Skill("deploy", "d" * 1000, when_to_use="w" * 1000)
    listing = render_listing([skill], profile="claude-code", budget=100_000)
    body = "d" * 1000 + " - " + "w" * 532  # 1,535 characters, then the ellipsis: 1,536
    assert entries_of(listing.text) == [f"- deploy: {body}…"]
    assert listing.entries[0].status == "truncated"
    short = render_listing([skill], profile="claude-code", options={"entry_cap": 10})
    assert entries_of(short.text) == ["- deploy: ddddddddd…"]


def test_everything_fits_and_only_entries_count() -> None:
    skills = [Skill("review", "Review code.", when_to_use="Use for PRs."), Skill("lint", "Lint.")]
    entries = ["- review: Review code. - Use for PRs.", "- lint: Lint."]
    budget = len("\n".join(entries))  # 50: the header is not counted
    listing = render_listing(skills, profile="claude-code", budget=budget, ordering="given")
    assert listing.text == HEADER + "\n" + "\n".join(entries)
    assert listing.used == budget


def test_least_used_descriptions_drop_to_names() -> None:
    skills = [Skill("alpha", "a" * 20), Skill("beta", "b" * 20), Skill("gamma", "g" * 20)]
    # Room for the names plus exactly one description (": " + 20 characters).
    budget = len("- alpha\n- beta\n- gamma") + 22
    listing = render_listing(
        skills, profile="claude-code", budget=budget, ordering="given", scores={"beta": 3.0}
    )
    assert entries_of(listing.text) == ["- alpha", f"- beta: {'b' * 20}", "- gamma"]
    assert [e.status for e in listing.entries] == ["name_only", "full", "name_only"]


def test_a_description_that_does_not_fit_is_skipped_and_the_next_tried() -> None:
    skills = [Skill("alpha", "a" * 50), Skill("beta", "b" * 10), Skill("gamma", "g" * 20)]
    budget = len("- alpha\n- beta\n- gamma") + 12  # room for beta's ": " + 10 only
    scores = {"alpha": 3.0, "beta": 2.0}
    listing = render_listing(
        skills, profile="claude-code", budget=budget, ordering="given", scores=scores
    )
    assert entries_of(listing.text) == ["- alpha", f"- beta: {'b' * 10}", "- gamma"]


def test_names_alone_overflowing_still_lists_every_name() -> None:
    skills = [Skill("alpha", "a"), Skill("beta", "b"), Skill("gamma", "g")]
    listing = render_listing(skills, profile="claude-code", budget=5, ordering="given")
    assert entries_of(listing.text) == ["- alpha", "- beta", "- gamma"]
    assert listing.shown_names == ("alpha", "beta", "gamma")


def test_wide_characters_count_two_cells() -> None:
    wide = [Skill("wide", "中文")]  # "- wide: 中文": 10 characters, 12 cells
    assert entries_of(render_listing(wide, profile="claude-code", budget=11).text) == ["- wide"]
    full = render_listing(wide, profile="claude-code", budget=12)
    assert entries_of(full.text) == ["- wide: 中文"]


def test_skills_without_description_and_skill_overrides() -> None:
    skills = [
        Skill("blank", ""),
        Skill("when-only", "", when_to_use="Use when asked.", body="## Steps\nDo it.\n"),
        Skill("quiet", "Quiet one."),
        Skill("gone", "Gone."),
        Skill("mine", "Mine."),
        Skill("manual", "Manual.", disable_model_invocation=True),
        Skill("typed", "Typed only by the model.", user_invocable=False),
    ]
    listing = render_listing(
        skills,
        profile="claude-code",
        ordering="given",
        options={
            "skill_overrides": {"quiet": "name-only", "gone": "off", "mine": "user-invocable-only"}
        },
    )
    assert entries_of(listing.text) == [
        "- blank: Skill",
        "- when-only: Steps - Use when asked.",
        "- quiet",
        "- typed: Typed only by the model.",
    ]
    fates = {e.name: e.status for e in listing.entries}
    assert fates["gone"] == fates["mine"] == "hidden"
    assert fates["manual"] == "disabled"


def test_body_line_stands_in_for_a_missing_description(tmp_path: Path) -> None:
    skill_md(tmp_path, "long", "name: long\n", "\n# " + "x" * 120 + "\nmore\n")
    catalog = load_catalog([f"project={tmp_path}"], profile="claude-code")
    listing = render_listing(catalog.skills, profile="claude-code")
    assert entries_of(listing.text) == ["- long: " + "x" * 97 + "..."]


def test_folder_name_with_a_different_frontmatter_name(tmp_path: Path) -> None:
    skill_md(tmp_path, "postgresql", "name: postgresql-table-design\ndescription: PG.\n")
    skill_md(tmp_path, "plain", "name: plain\ndescription: Plain.\n")
    catalog = load_catalog([f"project={tmp_path}"], profile="claude-code")
    listing = render_listing(catalog.skills, profile="claude-code", ordering="claude-code")
    assert entries_of(listing.text) == [
        "- plain: Plain.",
        "- postgresql (postgresql-table-design): PG.",
    ]


def test_a_long_name_is_shown_and_an_invalid_one_is_not(tmp_path: Path) -> None:
    """Captured at 2.1.328 and 2.1.332: length never hides the name (70 and 200 characters
    show), a character outside letters, digits and ``_:.-`` does at any length."""
    skill_md(tmp_path, "mb", f"name: {'x' * 70}\ndescription: Long.\n")
    skill_md(tmp_path, "mc", f"name: {'u' * 200}\ndescription: Longer.\n")
    skill_md(tmp_path, "md", f'name: "{"w" * 66} q"\ndescription: Spaced.\n')
    catalog = load_catalog([f"project={tmp_path}"], profile="claude-code")
    listing = render_listing(catalog.skills, profile="claude-code", ordering="claude-code")
    assert entries_of(listing.text) == [
        "- mb (" + "x" * 70 + "): Long.",
        "- mc (" + "u" * 200 + "): Longer.",
        "- md: Spaced.",
    ]


def test_invisible_characters_are_spaces_and_angle_brackets_entities(tmp_path: Path) -> None:
    """Captured at 2.1.328: the text is trimmed, terminal escapes removed, then each run of
    control, format or separator characters is one space (spaces themselves are kept);
    ``<`` and ``>`` are written as entities, ``&`` and quotes as they are."""
    skill_md(tmp_path, "a", 'name: a\ndescription: "a \u200b b\u200b\u200bc\\td\\e[31mred"\n')
    skill_md(tmp_path, "b", "name: b\ndescription: \"  x <b> & 'q'\u200b\"\n")
    skill_md(tmp_path, "c", 'name: c\ndescription: d\nwhen_to_use: "w\\tv\u2060"\n')
    catalog = load_catalog([f"project={tmp_path}"], profile="claude-code")
    listing = render_listing(catalog.skills, profile="claude-code", ordering="claude-code")
    assert entries_of(listing.text) == [
        "- a: a   b c dred",
        "- b: x &lt;b&gt; & 'q' ",
        "- c: d - w v ",
    ]


def test_front_matter_claude_code_cannot_read(tmp_path: Path) -> None:
    """Never closed: the whole file is the body (its first line, ``---``, the text); a value
    holding a YAML indicator and not enclosed in quotes is quoted and read (an unclosed
    flow, a broken escape); an unclosed quote of plain words leaves the front matter empty,
    so the body's first line stands in; an emoji escaped as a UTF-16 pair is one emoji."""
    (tmp_path / "open").mkdir()
    (tmp_path / "open" / "SKILL.md").write_text("---\nname: open\ndescription: x\n\n# T\n")
    skill_md(tmp_path, "flow", "name: flow\ndescription: [a, b\n")
    skill_md(tmp_path, "quote", 'name: quote\ndescription: "a b\n', "Body line.\n")
    skill_md(tmp_path, "special", 'name: special\ndescription: "& <b> \\"q\\" \\u\n')
    skill_md(tmp_path, "pair", 'name: pair\ndescription: "\\u00e9 \\ud83d\\ude80 x"\n')
    catalog = load_catalog([f"project={tmp_path}"], profile="claude-code")
    listing = render_listing(catalog.skills, profile="claude-code", ordering="claude-code")
    assert entries_of(listing.text) == [
        "- flow: [a, b",
        "- open: ---",
        "- pair: \u00e9 \U0001f680 x",
        "- quote: Body line.",
        '- special: "& &lt;b&gt; \\"q\\" \\u',
    ]


def test_a_name_that_is_another_skills_folder_is_not_repeated(tmp_path: Path) -> None:
    skill_md(tmp_path, "a", "name: b\ndescription: A.\n")
    skill_md(tmp_path, "c", "name: c\ndescription: C.\n")
    other = tmp_path.parent / "user"
    skill_md(other, "b", "name: bee\ndescription: B.\n")
    catalog = load_catalog([f"project={tmp_path}", f"user={other}"], profile="claude-code")
    listing = render_listing(catalog.skills, profile="claude-code", ordering="claude-code")
    assert entries_of(listing.text) == ["- b (bee): B.", "- a: A.", "- c: C."]


def test_load_order_user_then_project_then_plugin_in_locale_order(tmp_path: Path) -> None:
    for folder in ("long", "ab", "a-c", "a1"):
        skill_md(tmp_path / "project", folder, f"name: {folder}\ndescription: P.\n")
    skill_md(tmp_path / "user", "zed", "name: zed\ndescription: U.\n")
    plugin = tmp_path / "tools"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "tools"}))
    skill_md(plugin / "skills", "aaa", "name: aaa\ndescription: T.\n")
    sources = [f"plugin={plugin}", f"project={tmp_path / 'project'}", f"user={tmp_path / 'user'}"]
    catalog = load_catalog(sources, profile="claude-code")
    listing = render_listing(catalog.skills, profile="claude-code", ordering="claude-code")
    names = [line.split(":")[0] for line in entries_of(listing.text)]
    assert names == ["- zed", "- a-c", "- a1", "- ab", "- long", "- tools"]
    assert entries_of(listing.text)[-1] == "- tools:aaa: T."


def test_locale_order_punctuation_digits_letters_then_accents_then_case() -> None:
    """The order Claude Code gave these folder names (its loader accepts them all)."""
    names = ["Mid", "long", "ab", "aB", "a-c", "a_b", "a1", "éclair", "eclair"]
    skills = [Skill(n, "d", path=f"/s/{n}/SKILL.md") for n in names]
    listing = render_listing(skills, profile="claude-code", ordering="claude-code")
    assert listing.shown_names == (
        "a_b",
        "a-c",
        "a1",
        "ab",
        "aB",
        "eclair",
        "éclair",
        "long",
        "Mid",
    )


def test_builtins_follow_the_users_skills_and_fixed_ones_keep_their_text() -> None:
    own = AgentSnapshot(
        "claude-code",
        "2.1.328",
        (
            BuiltinSkill("helper", "Helps."),
            BuiltinSkill("extra", "Extra."),
            BuiltinSkill("x", "Y."),
        ),
        {FIXED_BUILTINS: "helper"},
    )
    skills = [Skill("mine", "m" * 30), Skill("x", "Mine, not the agent's.")]
    roomy = render_listing(
        skills, profile="claude-code", ordering="given", options={"snapshot": own}
    )
    assert entries_of(roomy.text) == [
        f"- mine: {'m' * 30}",
        "- x: Mine, not the agent's.",
        "- helper: Helps.",
        "- extra: Extra.",
    ]
    tight = render_listing(
        skills, profile="claude-code", ordering="given", budget=40, options={"snapshot": own}
    )
    assert entries_of(tight.text) == ["- mine", "- x", "- helper: Helps.", "- extra"]
    assert tight.shown_names == ("mine", "x")
    bare = render_listing(skills, profile="claude-code", options={"snapshot": "none"})
    assert "helper" not in bare.text


def test_plugin_skills_are_namespaced_so_no_false_overrides(tmp_path: Path) -> None:
    for plugin in ("sales", "legal"):
        root = tmp_path / "plugins" / plugin
        (root / ".claude-plugin").mkdir(parents=True)
        (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": plugin}))
        skill_md(root / "skills", "review", f"name: review\ndescription: Review {plugin}.\n")
    skill_md(tmp_path / "user", "review", "name: review\ndescription: Review code.\n")
    catalog = load_catalog(
        [f"plugin={tmp_path / 'plugins'}", f"user={tmp_path / 'user'}"], profile="claude-code"
    )
    assert sorted(catalog.names) == ["legal:review", "review", "sales:review"]
    assert catalog.overrides == ()
    # without a manifest (other agents), the same folders collide by name as before
    assert len(load_catalog([f"plugin={tmp_path / 'plugins'}"], profile="codebot").overrides) == 1


def test_paths_wait_for_a_touched_file_except_in_plugins(tmp_path: Path) -> None:
    skill_md(tmp_path / "skills", "tf", "name: tf\ndescription: Terraform.\npaths: ['*.tf']\n")
    plugin = tmp_path / "infra"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "infra"}))
    skill_md(plugin / "skills", "hcl", "name: hcl\ndescription: HCL.\npaths: ['*.tf']\n")
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "main.tf").write_text("")
    sources = [f"project={tmp_path / 'skills'}", f"plugin={plugin}"]
    claude = load_catalog(sources, profile="claude-code", cwd=tmp_path / "work")
    codebot = load_catalog(sources[:1], profile="codebot", cwd=tmp_path / "work")
    assert claude.inactive == {"tf"} and codebot.inactive == frozenset()


def test_skill_json_folders_are_not_read(tmp_path: Path) -> None:
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "skill.json").write_text(json.dumps({"name": "api", "description": "A."}))
    catalog = load_catalog([f"project={tmp_path}"], profile="claude-code")
    listing = render_listing(catalog.skills, profile="claude-code")
    assert listing.text == "" and listing.entry("api").status == "hidden"  # type: ignore[union-attr]
