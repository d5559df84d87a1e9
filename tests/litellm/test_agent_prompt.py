"""``prompt: agent``: the model gets the verified agent's own request shape from its snapshot,
translated to chat as litellm translates it, with only the listing and the message changed.

The snapshots here are hand-made (this project's own text) in the two shapes a capture stores:
Claude Code's Anthropic Messages request and Codex's Responses request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import queries

from skillbench._errors import SkillbenchError
from skillbench.listing import PROFILES, AgentSnapshot, save_snapshot

LISTING = "SKILLBENCH_LISTING_MARKER"
REQUEST = "SKILLBENCH_REQUEST_MARKER"

CLAUDE_TEMPLATE = {
    "system": [{"type": "text", "text": "House system prompt for tests."}],
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": REQUEST}]},
        {"role": "system", "content": [{"type": "text", "text": LISTING}]},
    ],
    "tools": [
        {
            "name": "Skill",
            "description": "House tool text.",
            "input_schema": {
                "type": "object",
                "properties": {"skill": {"type": "string"}},
                "required": ["skill"],
            },
        }
    ],
}
CODEX_TEMPLATE = {
    "input": [
        {
            "type": "message",
            "role": "developer",
            "content": [
                {"type": "input_text", "text": "House developer text."},
                {"type": "input_text", "text": LISTING},
            ],
        },
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": REQUEST}]},
        {
            "type": "additional_tools",
            "role": "developer",
            "tools": [
                {
                    "type": "namespace",
                    "name": "functions",
                    "description": "",
                    "tools": [{"type": "custom", "name": "exec", "description": "Run code."}],
                }
            ],
        },
    ]
}


def _texts(body: Mapping[str, Any], role: str) -> str:
    out = []
    for message in body["messages"]:
        if message["role"] == role:
            content = message["content"]
            parts = content if isinstance(content, list) else [{"text": content}]
            out += [str(p.get("text", "")) for p in parts]
    return "\n".join(out)


def policy(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
    """Name the skill the user names, the agent's way: Skill, or exec reading its file."""
    everything = "\n".join(_texts(body, r) for r in ("system", "developer", "user"))
    asked = re.search(r"use the ([a-z-]+) skill", _texts(body, "user"))
    if asked is None:
        return "no skill needed"
    name = asked.group(1)
    tools = {t["function"]["name"] for t in body.get("tools") or ()}
    if "Skill" in tools:
        return [("Skill", json.dumps({"skill": name}))]
    path = re.search(rf"^- {re.escape(name)}: .*\(file: ([^)]+)\)$", everything, re.MULTILINE)
    assert path is not None, everything
    return [
        ("exec", json.dumps({"input": f"await tools.exec_command({{cmd: 'cat {path.group(1)}'}})"}))
    ]


@pytest.fixture
def snapshots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "agent-cache"
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(root))
    for agent, template in (("claude-code", CLAUDE_TEMPLATE), ("codex", CODEX_TEMPLATE)):
        version = PROFILES.get(agent).agent_version
        assert version is not None
        texts = {"request_template": json.dumps(template)}
        save_snapshot(AgentSnapshot(agent=agent, version=version, texts=texts), root)
    return root


@pytest.mark.parametrize("profile", ["claude-code", "codex"])
def test_the_agents_own_request_carries_the_listing_and_message(
    profile: str, snapshots: Path, fake, make_selector
) -> None:
    fake.policy = policy
    selector = make_selector(prompt="agent", cache=False)
    batch = queries(["please use the pdf-merge skill", "what time is it"], profile)
    decisions = selector.select(batch)
    assert [d.chosen for d in decisions] == ["pdf-merge", None]
    body = next(b for b in fake.bodies if "what time is it" in json.dumps(b))
    system = _texts(body, "system") + _texts(body, "developer")
    house = (
        "House system prompt for tests." if profile == "claude-code" else "House developer text."
    )
    assert house in system
    assert batch[1].listing.text in json.dumps(body, ensure_ascii=False).replace("\\n", "\n")
    assert [t["function"]["name"] for t in body["tools"]] == (
        ["Skill"] if profile == "claude-code" else ["exec"]
    )


def test_without_a_snapshot_agent_prompts_say_how_to_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_selector
) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "empty"))
    selector = make_selector(prompt="agent", cache=False)
    with pytest.raises(SkillbenchError, match="skillbench capture claude-code"):
        selector.select(queries(["please use the pdf-merge skill"], "claude-code"))
