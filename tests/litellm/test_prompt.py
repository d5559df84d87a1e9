"""Prompts faithful to each profile: where the listing goes and which tools the model has."""

from __future__ import annotations

from pathlib import Path

from llm_helpers import queries

from skillbench.catalog import Skill
from skillbench.dataset import LabelledRequest
from skillbench.listing import render_listing
from skillbench.selectors import Query
from skillbench.selectors._litellm import (
    DEFAULT_SYSTEM_PROMPT,
    SKILL_TOOL_DESCRIPTION,
    build_prompt,
)


def test_codebot_listing_rides_in_one_reminder_before_the_user_text() -> None:
    (q,) = queries(["merge my pdfs"], "codebot")
    p = build_prompt(q)
    system, user = p.messages
    assert system["content"] == DEFAULT_SYSTEM_PROMPT
    assert user["content"].startswith("<system-reminder>\n## Skills\n")
    assert user["content"].count("<system-reminder>") == 1
    assert user["content"].endswith("</system-reminder>\nmerge my pdfs")
    assert [t["function"]["name"] for t in p.tools] == ["Skill"] and p.trigger == "skill_tool"


def test_claude_code_keeps_the_system_prompt_stable_across_listings() -> None:
    a, b = queries(["one", "two"], "claude-code")
    assert build_prompt(a).messages[0] == build_prompt(b).messages[0]
    assert build_prompt(a).messages[1:] == [
        {"role": "user", "content": "one"},
        {"role": "system", "content": a.listing.text},
    ]


def test_openharness_and_codex_put_the_listing_in_the_system_prompt() -> None:
    for profile, trigger, tool in (
        ("openharness", "skill_tool", "Skill"),
        ("codex", "file_read", "read_file"),
    ):
        (q,) = queries(["merge my pdfs"], profile)
        p = build_prompt(q, "Be brief.")
        assert p.messages[0]["content"] == "Be brief.\n\n" + q.listing.text
        assert p.messages[1]["content"] == "merge my pdfs"
        assert p.trigger == trigger and [t["function"]["name"] for t in p.tools] == [tool]


def test_skill_tool_follows_seed_000() -> None:
    (q,) = queries(["x"])
    tool = build_prompt(q).tools[0]["function"]
    assert "BLOCKING REQUIREMENT" in SKILL_TOOL_DESCRIPTION and "BEFORE" in SKILL_TOOL_DESCRIPTION
    assert "Never guess" in tool["description"]
    assert tool["parameters"]["required"] == ["skill"]
    assert set(tool["parameters"]["properties"]) == {"skill", "args"}


def test_codex_injects_each_skill_a_dollar_mention_names(tmp_path: Path) -> None:
    """Codex adds ``<skill>`` user messages after the request, in listing order; a name
    shared by two skills, an unknown name and a longer name are not mentions of a skill."""
    files = {}
    for name in ("pdf-tools", "unic", "dup", "dup2"):
        folder = tmp_path / name
        folder.mkdir()
        text = f"---\nname: {name}\ndescription: About {name}.\n---\nBody of {name}.\n"
        (folder / "SKILL.md").write_text(text)
        files[name] = text
    skills = [
        Skill(n, f"About {n}.", path=str(tmp_path / n / "SKILL.md"), rel_path=f"{n}/SKILL.md")
        for n in ("unic", "pdf-tools")
    ] + [
        Skill("dup", "One.", path=str(tmp_path / "dup" / "SKILL.md"), rel_path="dup/SKILL.md"),
        Skill("dup", "Two.", path=str(tmp_path / "dup2" / "SKILL.md"), rel_path="x/SKILL.md"),
    ]
    listing = render_listing(skills, profile="codex", options={"snapshot": "none"})
    text = "use $unic, $dup, $nope and $unicx"
    messages = build_prompt(Query(LabelledRequest("r", text), listing)).messages
    assert [m["role"] for m in messages] == ["system", "user", "user"]
    assert messages[1]["content"] == text
    assert messages[2]["content"] == (
        "<skill>\n<name>unic</name>\n<path>.agents/skills/unic/SKILL.md</path>\n"
        + files["unic"]
        + "\n</skill>"
    )
    text = "$pdf-tools and $unic."
    messages = build_prompt(Query(LabelledRequest("r", text), listing)).messages
    # Listing order (by name), whatever the order of the mentions.
    assert [m["content"].split("\n")[1] for m in messages[2:]] == [
        "<name>pdf-tools</name>",
        "<name>unic</name>",
    ]
