"""The ``agent`` selector: the shipped CLIs decide, with a scripted loopback model behind them.

The fake model is scripted per request: "trigger NAME now", and a positive control naming
NAME, call the skill (Claude Code's ``Skill`` tool, Gemini CLI's ``activate_skill``, Copilot
CLI's ``skill``; in Codex a read of the skill's ``SKILL.md`` through its ``exec`` tool), any
other text is answered in text. The live decisions must be the script's.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from skillbench.agentspec import AGENT_SPECS
from tests.support.fake_openai import FakeOpenAI

SKILLS = ("pdf-tools", "db-migrate", "release-notes", "api-docs")
_TRIGGER = re.compile(r"trigger ([a-z-]+) now")
_EXPLICIT = re.compile(r"Use the ([a-z-]+) skill to|\$([a-z-]+) Use this skill")
"""The positive controls' requests: in words, and Codex's ``$name``."""


def _users(body: Mapping[str, Any]) -> str:
    return json.dumps([m.get("content") for m in body["messages"] if m.get("role") == "user"])


def script(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
    """ "trigger NAME now" and a request naming NAME explicitly call the skill."""
    users = _users(body)
    found = _TRIGGER.search(users) or _EXPLICIT.search(users)
    if found is None:
        return "Nothing to do with a skill."
    return tool_call(next(g for g in found.groups() if g), body)


def never(body: Mapping[str, Any]) -> str:
    """A model that calls no tool, whatever it is asked."""
    return "Nothing to do with a skill."


def tool_call(name: str, body: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The call of skill ``name`` through the agent's own way of triggering one."""
    tools = {t["function"]["name"] for t in body.get("tools") or ()}
    if "Skill" in tools:
        return [("Skill", json.dumps({"skill": name}))]
    if "activate_skill" in tools:
        return [("activate_skill", json.dumps({"name": name}))]
    if "skill" in tools:
        return [("skill", json.dumps({"skill": name}))]
    code = f"const r = await tools.exec_command({{cmd: 'cat r1/{name}/SKILL.md'}}); text(r.output)"
    return [("exec", json.dumps({"input": code}))]


def _setup(root: Path, agent: str, url: str, n: int, extra: str = "") -> Path:
    for name in SKILLS:
        folder = root / "skills" / name
        folder.mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: Handles {name} work.\n---\nBody of {name}.\n"
        (folder / "SKILL.md").write_text(text)
    rows = []
    for i in range(n):
        name = SKILLS[i % len(SKILLS)]
        if i % 2 == 0:
            rows.append(
                {"id": f"r{i:02d}", "text": f"please trigger {name} now ({i})", "expected": name}
            )
        else:
            rows.append({"id": f"r{i:02d}", "text": f"tell me a joke about {i}", "expected": None})
    (root / "requests.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    kinds = AGENT_SPECS.get(agent).installable
    kind = "project" if "project" in kinds else kinds[0]  # OpenHarness reads user skills only
    config = root / "live.yaml"
    config.write_text(
        f"name: live-{agent}\n"
        f"catalogs:\n  own:\n    - {{path: skills, source: {kind}}}\n"
        "requests: requests.jsonl\n"
        f"profiles: [{agent}]\nbudgets: [null]\norderings: [alpha]\n"
        f"selectors:\n  - {{type: agent, agent: {agent}, api_base: '{url}'{extra}}}\n"
    )
    return config


def _run(config: Path, *extra: str, wait: bool = True) -> subprocess.Popen[str] | int:
    command = [
        sys.executable,
        "-m",
        "skillbench",
        "run",
        str(config),
        "-o",
        str(config.parent / "out"),
        "-j",
        "2",
        "-q",
        *extra,
    ]
    env = {**os.environ, "SKILLBENCH_CACHE_DIR": str(config.parent / "cache")}
    process = subprocess.Popen(
        command, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    if not wait:
        return process
    out, _ = process.communicate(timeout=600)
    assert process.returncode in (0, 1), out
    return process.returncode


def _decisions(out: Path) -> dict[str, str | None]:
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert all(r["outcome"] != "error" for r in rows), [r.get("detail") for r in rows]
    return {r["request_id"]: r["chosen"] for r in rows if not r.get("control")}


def _expected(n: int) -> dict[str, str | None]:
    return {f"r{i:02d}": SKILLS[i % len(SKILLS)] if i % 2 == 0 else None for i in range(n)}


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini-cli", "copilot-cli"])
def test_live_decisions_are_the_scripted_ones(agent: str, tmp_path: Path) -> None:
    with FakeOpenAI(policy=script) as fake:
        config = _setup(tmp_path, agent, fake.base_url, 20, ", model: openai/fake")
        assert _run(config) == 0
    assert _decisions(tmp_path / "out") == _expected(20)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    rows = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    # Each decision is timed by its agent turn, and the bridge's own processor time is a
    # part of it (the progress reports the agent's own pace from the two).
    assert all(0 < r["detail"]["bridge_cpu_ms"] < r["latency_ms"] for r in rows), rows[0]


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_live_run_killed_with_sigkill_resumes_to_the_same_decisions(
    agent: str, tmp_path: Path
) -> None:
    with FakeOpenAI(policy=script, latency_s=1.0) as fake:
        config = _setup(tmp_path, agent, fake.base_url, 8, ", model: openai/fake")
        process = _run(config, wait=False)
        assert isinstance(process, subprocess.Popen)
        deadline = time.monotonic() + 300
        while fake.requests < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        assert _run(config, "--resume") == 0
    assert _decisions(tmp_path / "out") == _expected(8)


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_live_run_stops_at_its_spend_cap(agent: str, tmp_path: Path) -> None:
    """gpt-4o-mini's price on ~10k prompt tokens a call: a $0.002 cap allows about one call."""
    with FakeOpenAI(policy=script) as fake:
        extra = ", model: openai/gpt-4o-mini, max_cost_usd: 0.002"
        config = _setup(tmp_path, agent, fake.base_url, 12, extra)
        assert _run(config) == 1
        calls = fake.requests
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["status"] == "stopped"
    assert "spend cap" in (manifest["stop_reason"] or "")
    assert calls < 12
