"""The listing an agent sent against the cell's render, read entry by entry (no CLI needed).

Texts are hand-made in each agent's format; the expected differences are read off them.
"""

from __future__ import annotations

from skillbench.agents import listing_difference

HEADER = "The following skills are available for use with the Skill tool:"


def claude(*entries: str) -> str:
    return HEADER + "\n\n" + "\n".join(entries)


def codex(*entries: str) -> str:
    lines = "\n".join(entries)
    return (
        "<skills_instructions>\n## Skills\nIntro.\n### Skill roots\n- `r0` = `/x/.system`\n"
        f"### Available skills\n{lines}\n### How to use skills\n- read the file\n"
        "</skills_instructions>"
    )


def test_the_same_skills_with_the_same_text_agree_whatever_the_builtins_and_paths() -> None:
    sent = claude("- pdf: Merge PDFs.", "- db: Migrate.", "- own-tool: The agent's own.")
    assert (
        listing_difference(
            "claude-code", sent, claude("- pdf: Merge PDFs.", "- db: Migrate."), {"own-tool"}
        )
        is None
    )
    sent = codex(
        "- own: Its own. (file: r0/own/SKILL.md)", "- pdf: Merge PDFs. (file: r1/pdf/SKILL.md)"
    )
    rendered = codex("- pdf: Merge PDFs. (file: /home/u/.agents/skills/pdf/SKILL.md)")
    assert listing_difference("codex", sent, rendered, {"own"}) is None


def test_an_extra_skill_a_name_only_entry_and_a_missing_one_are_named() -> None:
    rendered = claude("- pdf: Merge PDFs.", "- db: Migrate.")
    extra = claude("- pdf: Merge PDFs.", "- db: Migrate.", "- notes: Extra.")
    assert listing_difference("claude-code", extra, rendered, set()) == (
        "the agent lists 1 more: notes"
    )
    cut = claude("- pdf", "- db: Migrate.")
    assert listing_difference("claude-code", cut, rendered, set()) == (
        "entry 1 (pdf): the agent shows the name only, the render 'Merge PDFs.'"
    )
    assert listing_difference("claude-code", claude("- db: Migrate."), rendered, set()) == (
        "entry 1: the agent lists 'db', the render 'pdf'"
    )
    short = codex("- pdf: Merge PDFs. (file: r1/pdf/SKILL.md)")
    assert listing_difference(
        "codex", short, codex("- pdf: Merge PDFs. (file: a)", "- db: M. (file: b)"), set()
    ) == ("the agent does not list db")
