"""The Qwen Code and opencode agent modules without their CLIs: bad input is one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.agents import AGENTS, Workspace
from skillbench.catalog import SourceSpec


def _workspace(tmp_path: Path) -> Workspace:
    workspace = Workspace(tmp_path / "home", tmp_path / "project")
    for path in workspace:
        path.mkdir(parents=True)
    return workspace


@pytest.mark.parametrize("agent", ["qwen-code", "opencode"])
def test_plugin_and_bundled_sources_are_refused_by_name(agent: str, tmp_path: Path) -> None:
    spec = AGENTS.get(agent)
    for kind in ("plugin", "bundled", "managed"):
        with pytest.raises(SkillbenchError, match=rf"^{kind}=/x: {agent} has no folder"):
            spec.lay_out([SourceSpec("/x", kind)], _workspace(tmp_path / kind))


@pytest.mark.parametrize("agent", ["qwen-code", "opencode"])
def test_a_request_without_a_listing_names_the_agent(agent: str) -> None:
    body = {"messages": [{"role": "system", "content": "hi"}, {"role": "user", "content": "x"}]}
    with pytest.raises(SkillbenchError, match=f"^{agent}: the request carries no skill listing"):
        AGENTS.get(agent).listing(body)


def test_opencode_refuses_a_model_it_would_not_run() -> None:
    with pytest.raises(SkillbenchError, match=r"^opencode: --model gpt-x: "):
        AGENTS.get("opencode").command("opencode", "hi", "gpt-x", "http://127.0.0.1:1")


def test_skill_usage_is_refused(tmp_path: Path) -> None:
    for agent in ("qwen-code", "opencode"):
        with pytest.raises(SkillbenchError, match=f"^{agent} keeps no skill-usage history"):
            AGENTS.get(agent).configure(_workspace(tmp_path / agent), {}, {"pdf": 3})
