"""Warm agents: one Claude Code or Codex process answers request after request, each in a
fresh conversation that carries no trace of the one before and lists the skills again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.agents import AGENTS, Recorder, Workspace, find_executable, warm_agent
from skillbench.catalog import SourceSpec


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_each_request_of_a_warm_agent_starts_a_fresh_conversation(
    agent: str, tmp_path: Path
) -> None:
    skill = tmp_path / "skills" / "pdf-tools"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: pdf-tools\ndescription: Handles pdf work.\n---\nBody.\n", encoding="utf-8"
    )
    spec = AGENTS.get(agent)
    workspace = Workspace(tmp_path / "home", tmp_path / "project")
    for folder in workspace:
        folder.mkdir()
    spec.lay_out([SourceSpec(str(skill), "project")], workspace)
    spec.configure(workspace, {}, {})
    prompts = ["first secret word: aubergine", "second secret word: zeppelin", "third: quokka"]
    with Recorder() as recorder, warm_agent(agent, find_executable(spec), workspace, recorder) as w:
        turns = [spec.main_request(w.ask(prompt)).body for prompt in prompts]
    for i, body in enumerate(turns):
        text = json.dumps(body)
        assert prompts[i].split(": ")[1] in text
        assert not any(other.split(": ")[1] in text for other in prompts if other != prompts[i])
        assert "pdf-tools" in spec.listing(body)
