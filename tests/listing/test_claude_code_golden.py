"""Claude Code listings derived by hand from its documented settings.

Public sources (Claude Code settings and skills documentation, changelog 2.1.105): the
listing budget is ``skillListingBudgetFraction`` (0.01) of the context window, 8,000
characters when the window is unknown; each entry's ``description - when_to_use`` is capped
at 1,536 characters (``maxSkillDescriptionChars``); on overflow every name stays and the
least-used skills lose their descriptions first; ``skillOverrides`` lists a skill ``on``,
``name-only``, ``user-invocable-only`` or ``off``; plugin skills are named
``plugin-name:skill``; ``paths`` skills appear once a matching file is touched. The header
line and the ``<system-reminder>`` wrapper are not public: skillbench's own wording, so the
budget arithmetic below counts them as skillbench does (header line, blank line, entries).
"""

from __future__ import annotations

import json
from pathlib import Path

from skillbench.catalog import Skill, load_catalog
from skillbench.listing import render_listing

HEADER = "The following skills are available for use with the Skill tool:\n"


def block(*entries: str) -> int:
    """Characters the budget counts: the header line, a blank line, entries joined by \\n."""
    return len(HEADER) + 1 + len("\n".join(entries))


def test_budget_is_one_percent_of_the_window_in_characters() -> None:
    one = [Skill("a", "b")]
    assert render_listing(one, profile="claude-code").budget == 8000
    big = render_listing(one, profile="claude-code", options={"context_window": 1_000_000})
    assert big.budget == 40_000  # 1,000,000 tokens x 4 characters x 1%
    raised = render_listing(
        one, profile="claude-code", options={"context_window": 200_000, "budget_fraction": 0.02}
    )
    assert raised.budget == 16_000


def test_description_and_when_to_use_joined_and_capped() -> None:
    skill = Skill("deploy", "d" * 1000, when_to_use="w" * 1000)
    listing = render_listing([skill], profile="claude-code", budget=100_000)
    entry = listing.text.splitlines()[3]
    body = "d" * 1000 + " - " + "w" * 532  # 1,535 characters, then the ellipsis: 1,536
    assert entry == f"- deploy: {body}…"
    assert listing.entries[0].status == "truncated"


def test_stage1_everything_in_full() -> None:
    skills = [Skill("review", "Review code.", when_to_use="Use for PRs."), Skill("lint", "Lint.")]
    entries = ["- review: Review code. - Use for PRs.", "- lint: Lint."]
    listing = render_listing(
        skills, profile="claude-code", budget=block(*entries), ordering="given"
    )
    assert listing.text == "<system-reminder>\n" + HEADER + "\n" + "\n".join(entries) + (
        "\n</system-reminder>"
    )
    assert listing.used == block(*entries)


def test_stage2_least_used_descriptions_drop_to_names() -> None:
    skills = [Skill("alpha", "a" * 20), Skill("beta", "b" * 20), Skill("gamma", "g" * 20)]
    # Room for the names plus exactly one description (": " + 20 characters).
    budget = block("- alpha", "- beta", "- gamma") + 22
    listing = render_listing(
        skills, profile="claude-code", budget=budget, ordering="given", scores={"beta": 3.0}
    )
    assert listing.text.splitlines()[3:6] == ["- alpha", f"- beta: {'b' * 20}", "- gamma"]
    assert [e.status for e in listing.entries] == ["name_only", "full", "name_only"]


def test_stage3_names_alone_overflow_and_later_skills_go() -> None:
    skills = [Skill("alpha", "a"), Skill("beta", "b"), Skill("gamma", "g")]
    listing = render_listing(
        skills, profile="claude-code", budget=block("- alpha", "- beta"), ordering="given"
    )
    assert listing.shown_names == ("alpha", "beta")
    assert listing.entry("gamma").status == "dropped"  # type: ignore[union-attr]


def test_blank_skills_and_skill_overrides() -> None:
    skills = [
        Skill("blank", ""),
        Skill("when-only", "", when_to_use="Use when asked."),
        Skill("quiet", "Quiet one."),
        Skill("gone", "Gone."),
        Skill("mine", "Mine."),
    ]
    listing = render_listing(
        skills,
        profile="claude-code",
        ordering="given",
        options={
            "skill_overrides": {"quiet": "name-only", "gone": "off", "mine": "user-invocable-only"}
        },
    )
    assert listing.text.splitlines()[3:5] == ["- when-only: Use when asked.", "- quiet"]
    fates = {e.name: (e.status, bool(e.reason)) for e in listing.entries}
    assert fates["blank"] == ("hidden", True)
    assert fates["gone"] == ("hidden", True) and fates["mine"] == ("hidden", True)
    assert fates["quiet"] == ("name_only", False)


def test_plugin_skills_are_namespaced_so_no_false_overrides(tmp_path: Path) -> None:
    for plugin in ("sales", "legal"):
        root = tmp_path / "plugins" / plugin
        (root / ".claude-plugin").mkdir(parents=True)
        (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": plugin}))
        (root / "skills" / "review").mkdir(parents=True)
        (root / "skills" / "review" / "SKILL.md").write_text(
            f"---\nname: review\ndescription: Review {plugin} documents.\n---\nBody.\n"
        )
    (tmp_path / "user" / "review").mkdir(parents=True)
    (tmp_path / "user" / "review" / "SKILL.md").write_text(
        "---\nname: review\ndescription: Review code.\n---\nBody.\n"
    )
    catalog = load_catalog(
        [f"plugin={tmp_path / 'plugins'}", f"user={tmp_path / 'user'}"], profile="claude-code"
    )
    assert sorted(catalog.names) == ["legal:review", "review", "sales:review"]
    assert catalog.overrides == ()
    # without a manifest (other agents), the same folders collide by name as before
    assert len(load_catalog([f"plugin={tmp_path / 'plugins'}"], profile="codebot").overrides) == 1


def test_paths_skills_wait_for_a_touched_file(tmp_path: Path) -> None:
    (tmp_path / "skills" / "tf").mkdir(parents=True)
    (tmp_path / "skills" / "tf" / "SKILL.md").write_text(
        "---\nname: tf\ndescription: Terraform.\npaths: ['*.tf']\n---\nBody.\n"
    )
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "main.tf").write_text("")
    sources = [f"project={tmp_path / 'skills'}"]
    claude = load_catalog(sources, profile="claude-code", cwd=tmp_path / "work")
    codebot = load_catalog(sources, profile="codebot", cwd=tmp_path / "work")
    assert claude.inactive == {"tf"} and codebot.inactive == frozenset()
