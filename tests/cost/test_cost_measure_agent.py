"""Inline versus fork measured on the real Claude Code CLI with a scripted loopback model.

The skill is our own; the expected figures come from litellm's tokenizer on the texts we
wrote (the skill body, the scripted summary) and from what the captured requests must hold.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.agents import run_session
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.cli import main
from skillbench.cost import calibration_path
from skillbench.cost._measure import SUMMARY, script
from skillbench.tokens import litellm_offline
from tests.support.agents import needs_agent

BODY = (
    "# Tidy the module\n\nSort the imports of $ARGUMENTS, group them by origin and remove the "
    "unused ones. Then rename local variables that shadow built-ins.\n\n"
    + "".join(
        f"{i}. Check rule {i}: read each function of the module again, note every place where "
        f"the rule is broken, fix it with the smallest change and run the tests once more.\n"
        for i in range(1, 25)
    )
)
"""About 700 tokens: larger than the summary, so forking it pays off at some turn."""
FRAMING = 40
"""Most tokens the agent may add around a text it carries (a path line, a notice)."""


def tokens(text: str) -> int:
    return int(litellm_offline().token_counter(model="gpt-4o", text=text))


def _skill(root: Path, fork: bool) -> Path:
    folder = root / "tidy-module"
    folder.mkdir(parents=True)
    context = "context: fork\n" if fork else ""
    (folder / "SKILL.md").write_text(
        "---\nname: tidy-module\ndescription: Tidy a Python module's imports and names.\n"
        f"arguments:\n  - path\n{context}---\n{BODY}",
        encoding="utf-8",
    )
    return root


@needs_agent("claude-code")
def test_measure_prints_measured_totals_and_calibrates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    skills = _skill(tmp_path / "skills", fork=True)
    argv = ["cost", f"project={skills}", "--measure", "claude-code", "--follow-ups", "1,2"]
    assert main([*argv, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["agent"], report["version"]) == ("claude-code", "2.1.328")
    (row,) = report["skills"]
    cal = report["calibration"]
    body = tokens(BODY.replace("$ARGUMENTS", "src/"))
    inline_one, inline_two = row["inline_measured"]
    per_turn = inline_one // 2
    assert inline_one == 2 * per_turn and inline_two == 3 * per_turn  # the same body each turn
    assert body <= per_turn <= body + FRAMING
    summary = cal["summary_tokens"]
    assert tokens(SUMMARY) <= summary <= tokens(SUMMARY) + FRAMING
    fork_one, fork_two = row["fork_measured"]
    assert fork_two - fork_one == summary
    fixed = fork_one - 2 * summary
    assert fixed >= cal["fork_system_prompt_tokens"] + body + tokens(SUMMARY)
    assert cal["fork_system_prompt_tokens"] > 2000 and cal["fork_work_tokens"] > 0
    assert row["break_even_measured"] == fixed // (per_turn - summary) + 1
    assert abs(row["break_even_calibrated"] - row["break_even_measured"]) <= 1
    assert calibration_path("claude-code", "2.1.328", tmp_path / "cache").is_file()
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "claude-code 2.1.328" in text and "what the model got wrong" in text


@needs_agent("claude-code")
def test_a_forked_skill_reaches_only_the_sub_agent(tmp_path: Path) -> None:
    skills = _skill(tmp_path / "skills", fork=True)
    (skill,) = load_catalog([f"project={skills}"]).skills
    prompts = ["Please use the tidy-module skill on src/.", "Anything else?"]
    session = run_session(
        "claude-code",
        [SourceSpec(str(skills), "project")],
        prompts,
        script("claude-code", skill, "src/", str(skills / "tidy-module" / "SKILL.md")),
        tmp_path / "run",
    )
    assert [(r.turn, r.role) for r in session.requests] == [
        (0, "main"),
        (0, "subagent"),
        (0, "subagent"),  # after reading the file: the sub-agent's real work
        (0, "main"),
        (1, "main"),
    ]
    texts = [json.dumps(r.recorded.body, ensure_ascii=False) for r in session.requests]
    heading = json.dumps("Sort the imports of src/")[1:-1]
    assert [heading in t for t in texts] == [False, True, True, False, False]
    answer = json.dumps(SUMMARY)[1:-1]
    assert [answer in t for t in texts] == [False, False, False, True, True]
    assert prompts[0] not in texts[1]  # the sub-agent gets the body, not the request
