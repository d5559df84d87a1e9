"""Whole-turn detection: every call read, the first that names a skill decides."""

from __future__ import annotations

import json
from typing import Any

from llm_helpers import listing

from skillbench.metrics import classify
from skillbench.selectors._litellm import detect


def response(*calls: tuple[str, Any], text: str | None = None) -> dict[str, Any]:
    tool_calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(calls)
    ]
    message = {"role": "assistant", "content": text, "tool_calls": tool_calls or None}
    return {"choices": [{"index": 0, "message": message}]}


def skill(name: str, **extra: Any) -> tuple[str, str]:
    return ("Skill", json.dumps({"skill": name, **extra}))


CODEBOT = listing("codebot")
CODEX = listing("codex")
SHOWN = CODEBOT.shown_names


def test_a_later_skill_call_counts_and_every_call_is_recorded() -> None:
    d = detect(response(("read_file", '{"path": "a.py"}'), skill("weather")), CODEBOT, "skill_tool")
    assert (d.kind, d.chosen) == ("invoke", "weather")
    assert d.detail["trigger_call"] == 1
    assert [c["name"] for c in d.detail["calls"]] == ["read_file", "Skill"]


def test_first_skill_call_wins_over_later_ones() -> None:
    d = detect(response(skill("git-commit"), skill("weather")), CODEBOT, "skill_tool")
    assert d.chosen == "git-commit" and len(d.detail["calls"]) == 2


def test_unlisted_name_is_kept_verbatim_and_classified_hallucinated() -> None:
    d = detect(response(skill("deploy-prod")), CODEBOT, "skill_tool")
    assert (d.kind, d.chosen) == ("invoke", "deploy-prod")
    assert classify(["weather"], d, SHOWN) == "hallucinated"


def test_broken_arguments_are_malformed_unless_a_later_call_is_good() -> None:
    bad_json = detect(response(("Skill", '{"skill": "weath')), CODEBOT, "skill_tool")
    assert bad_json.kind == "malformed" and "invalid JSON" in bad_json.detail["error"]
    missing = detect(response(("Skill", '{"args": "x"}')), CODEBOT, "skill_tool")
    assert missing.kind == "malformed" and "skill" in missing.detail["error"]
    rescued = detect(response(("Skill", "{oops"), skill("weather")), CODEBOT, "skill_tool")
    assert (rescued.kind, rescued.chosen) == ("invoke", "weather")


def test_text_only_is_an_abstention_and_keeps_the_text() -> None:
    d = detect(response(text="Sure, here is how."), CODEBOT, "skill_tool")
    assert d.kind == "abstain" and d.detail["text"] == "Sure, here is how."
    other = detect(response(("bash", '{"cmd": "ls"}')), CODEBOT, "skill_tool")
    assert other.kind == "abstain" and other.detail["calls"][0]["name"] == "bash"


def test_arguments_given_as_an_object_and_slash_names_are_accepted() -> None:
    d = detect(response(("skill", {"skill": "/weather"})), CODEBOT, "skill_tool")
    assert d.chosen == "weather"


def test_codex_trigger_is_reading_the_skill_file() -> None:
    read = detect(response(("read_file", '{"path": "/sk/weather/SKILL.md"}')), CODEX, "file_read")
    assert (read.kind, read.chosen) == ("invoke", "weather")
    relative = detect(response(("read_file", '{"path": "weather/SKILL.md"}')), CODEX, "file_read")
    assert relative.chosen == "weather"
    other = detect(response(("read_file", '{"path": "src/app.py"}')), CODEX, "file_read")
    assert other.kind == "abstain"


def test_codex_unknown_skill_file_is_hallucinated_and_broken_read_is_malformed() -> None:
    made_up = detect(response(("read_file", '{"path": "/x/deploy/SKILL.md"}')), CODEX, "file_read")
    assert made_up.kind == "invoke" and classify([], made_up, CODEX.shown_names) == "hallucinated"
    broken = detect(response(("read_file", '{"path": "/sk/weather/SKILL.md')), CODEX, "file_read")
    assert broken.kind == "malformed"
    # A Skill call means nothing to Codex: it has no such tool.
    assert detect(response(skill("weather")), CODEX, "file_read").kind == "abstain"


def test_a_hidden_skills_file_read_is_hallucinated() -> None:
    from llm_helpers import SKILLS

    from skillbench.listing import render_listing

    tight = render_listing(
        SKILLS, profile="codex", ordering="alpha", budget=120, options={"context_window": None}
    )
    hidden = [e for e in tight.entries if not e.shown]
    assert hidden, "budget should hide a skill"
    path = hidden[0].skill.path
    d = detect(response(("read_file", json.dumps({"path": path}))), tight, "file_read")
    assert d.chosen == hidden[0].name
    assert classify([hidden[0].name], d, tight.shown_names) == "hallucinated"
