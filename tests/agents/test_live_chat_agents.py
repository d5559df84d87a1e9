"""The ``agent`` selector for the agents that speak OpenAI chat completions (Qwen Code, opencode,
Kilo Code CLI, Cline CLI, OpenHarness).

The scripted loopback model of ``test_live_selector`` decides ("trigger NAME now" and a
positive control naming NAME call the agent's skill tool, other text is answered in text).
A run with the live agent and the direct ``litellm`` selector side by side must reach the
same decision on every request.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.agents.test_live_selector import _EXPLICIT, _TRIGGER, _expected, _run, _setup
from tests.support.fake_openai import FakeOpenAI

SKILL_TOOL = {
    "cline": ("skills", "skill"),
    "kilo-code": ("skill", "name"),
    "opencode": ("skill", "name"),
    "openharness": ("skill", "name"),
    "qwen-code": ("skill", "skill"),
}


def script(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
    """ "trigger NAME now" and a positive control naming NAME call the skill."""
    users = json.dumps([m.get("content") for m in body["messages"] if m.get("role") == "user"])
    found = _TRIGGER.search(users) or _EXPLICIT.search(users)
    if found is None:
        return "Nothing to do with a skill."
    name = next(g for g in found.groups() if g)
    tools = {t["function"]["name"] for t in body.get("tools") or ()}
    for tool, argument in SKILL_TOOL.values():
        if tool in tools and argument in _schema(body, tool).get("properties", {}):
            return [(tool, json.dumps({argument: name}))]
    return [("Skill", json.dumps({"skill": name}))]


def _schema(body: Mapping[str, Any], name: str) -> Any:
    return next(t for t in body["tools"] if t["function"]["name"] == name)["function"]["parameters"]


def _rows(out: Path) -> dict[str, dict[str, str | None]]:
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert all(r["outcome"] != "error" for r in rows), [r.get("detail") for r in rows]
    by_selector: dict[str, dict[str, str | None]] = {}
    for r in (r for r in rows if not r.get("control")):
        by_selector.setdefault(r["selector"], {})[r["request_id"]] = r["chosen"]
    return by_selector


@pytest.mark.agents
@pytest.mark.slow
@pytest.mark.parametrize("agent", sorted(SKILL_TOOL))
def test_live_decisions_equal_the_direct_selectors(
    agent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLBENCH_FAKE_KEY", "local")
    with FakeOpenAI(policy=script) as fake:
        config = _setup(tmp_path, agent, fake.base_url, 8, ", model: openai/fake")
        direct = (
            f"  - {{type: litellm, model: openai/fake, api_base: '{fake.base_url}', "
            "api_key_env: SKILLBENCH_FAKE_KEY}\n"
        )
        config.write_text(config.read_text() + direct)
        assert _run(config) == 0
        forwarded = fake.requests
    decisions = _rows(tmp_path / "out")
    assert len(decisions) == 2
    live, litellm = decisions.values()
    assert live == litellm == _expected(8)
    assert forwarded >= 16
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["status"] == "complete"


@pytest.mark.agents
@pytest.mark.slow
@pytest.mark.parametrize("agent", sorted(SKILL_TOOL))
def test_a_live_run_stops_at_its_spend_cap(agent: str, tmp_path: Path) -> None:
    """gpt-4o-mini's list price on the agent's whole prompt (thousands of tokens a call):
    a $0.002 cap stops the run after a few calls, well before all 12."""
    with FakeOpenAI(policy=script) as fake:
        extra = ", model: openai/gpt-4o-mini, max_cost_usd: 0.002"
        config = _setup(tmp_path, agent, fake.base_url, 12, extra)
        assert _run(config) == 1
        calls = fake.requests
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["status"] == "stopped"
    assert "spend cap" in (manifest["stop_reason"] or "")
    assert calls < 12
