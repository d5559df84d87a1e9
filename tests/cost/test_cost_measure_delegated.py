"""Inline versus a sub-agent measured on agents with no ``context: fork``: opencode 1.18.33,
Kilo Code CLI 7.7.7 (opencode's sessions) and Qwen Code 0.24.4, each through its real CLI
against the scripted loopback model.

Neither runs a skill in a sub-agent by itself: the fork side hands the task to the agent's
sub-agent tool (opencode's ``task``, Qwen Code's ``agent``), and the sub-agent calls the
skill tool, reads a file and answers. Expectations are worked out by hand from that script:
three sub-agent requests (the task; after the skill's result; after the file's), two of
them carrying the body; the skill's body carried once per main turn inline; the summary
once per turn forked. Token figures come from litellm's tokenizer on our own texts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.agents import run_session
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.cli import main
from skillbench.cost._measure import SUMMARY, WORK_TEXT, script
from tests.cost.test_cost_measure_agent import BODY, tokens
from tests.support.agents import needs_agent

FRAMING = 120
"""Most tokens these agents add around a text they carry: opencode's ``<skill_content>``
wrapper with a title, base-directory note and file list; Qwen Code's base-directory lines;
a task's result notice."""
AGENTS = [
    pytest.param("opencode", "1.18.33", marks=needs_agent("opencode")),
    pytest.param("kilo-code", "7.7.7", marks=needs_agent("kilo-code")),
    pytest.param("qwen-code", "0.24.4", marks=needs_agent("qwen-code")),
]


def _skill(root: Path) -> Path:
    folder = root / "tidy-module"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: tidy-module\ndescription: Tidy a Python module's imports and names.\n"
        f"arguments:\n  - path\n---\n{BODY}",
        encoding="utf-8",
    )
    return root


@pytest.mark.parametrize(("agent", "version"), AGENTS)
def test_measure_a_delegated_fork(
    agent: str,
    version: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    skills = _skill(tmp_path / "skills")
    argv = ["cost", f"project={skills}", "--measure", agent, "--follow-ups", "1"]
    assert main([*argv, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["agent"], report["version"]) == (agent, version)
    (row,) = report["skills"]
    cal = report["calibration"]
    # the sub-agent: the task, then the skill's result, then the file's: 3 requests, the
    # last two carrying the body
    assert (cal["fork_requests"], cal["fork_body_requests"]) == (3, 2)
    assert cal["fork"] in ("task", "agent")
    (inline_one,) = row["inline_measured"]
    per_turn = inline_one // 2
    assert inline_one == 2 * per_turn  # the call's turn and one follow-up, the same body
    body = min(tokens(BODY), tokens(BODY.replace("$ARGUMENTS", "src/")))
    assert body <= per_turn <= tokens(BODY) + FRAMING
    summary = cal["summary_tokens"]
    assert tokens(SUMMARY) <= summary <= tokens(SUMMARY) + FRAMING
    # W: the calls and the file read, less what the carried summary adds to the written one
    assert cal["fork_work_tokens"] >= tokens(WORK_TEXT) - FRAMING > 0
    # a system prompt and tool list of thousands of tokens, re-sent by each request
    assert cal["fork_system_prompt_tokens"] > 2000
    (fork_one,) = row["fork_measured"]
    fixed = fork_one - 2 * summary
    assert fixed >= 3 * cal["fork_system_prompt_tokens"] + 2 * body + tokens(WORK_TEXT)
    assert row["break_even_measured"] == fixed // (per_turn - summary) + 1
    assert abs(row["break_even_calibrated"] - row["break_even_measured"]) <= 1


@pytest.mark.parametrize(("agent", "version"), AGENTS)
def test_the_task_reaches_the_sub_agent_and_only_its_summary_comes_back(
    agent: str, version: str, tmp_path: Path
) -> None:
    skills = _skill(tmp_path / "skills")
    (skill,) = load_catalog([f"project={skills}"]).skills
    work = tmp_path / "run" / "project" / "src" / "inventory.py"
    work.parent.mkdir(parents=True)
    work.write_text(WORK_TEXT, encoding="utf-8")
    prompts = ["Please use the tidy-module skill on src/.", "Anything else?"]
    session = run_session(
        agent,
        [SourceSpec(str(skills), "project")],
        prompts,
        script(agent, skill, "src/", str(work), "fork"),
        tmp_path / "run",
    )
    assert session.version == version
    # opencode's (and Kilo's) title request declares no tools: its own aside, left out here
    requests = [r for r in session.requests if r.recorded.body.get("tools")]
    assert [(r.turn, r.role) for r in requests] == [
        (0, "main"),  # hands the task to the sub-agent
        (0, "subagent"),  # calls the skill
        (0, "subagent"),  # reads the file
        (0, "subagent"),  # answers with the summary
        (0, "main"),
        (1, "main"),
    ]
    texts = [json.dumps(r.recorded.body, ensure_ascii=False) for r in requests]
    heading = json.dumps("Check rule 24: read each function")[1:-1]
    assert [heading in t for t in texts] == [False, False, True, True, False, False]
    answer = json.dumps(SUMMARY)[1:-1]
    assert [answer in t for t in texts] == [False, False, False, False, True, True]
    module = json.dumps("def check_8(items):")[1:-1]
    assert [module in t for t in texts] == [False, False, False, True, False, False]
