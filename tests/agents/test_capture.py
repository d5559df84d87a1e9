"""Capturing the real agents: what the CLI sent, laid out and read back, and nothing left over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.agents import Recorder, Reply, capture_agent
from skillbench.listing import read_snapshot
from tests.support.agents import needs_agent

SKILL = "---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"


def _skills(root: Path, **descriptions: str) -> Path:
    for name, description in descriptions.items():
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(SKILL.format(name=name, description=description))
    return root


def test_recorder_answers_both_wires_and_records_the_body() -> None:
    import urllib.request

    with Recorder(lambda r: Reply(tool="Skill", raw_arguments=json.dumps({"skill": "pdf"}))) as rec:
        for path, body in (("/v1/messages", {"stream": True}), ("/v1/responses", {})):
            request = urllib.request.Request(
                rec.base_url + path, data=json.dumps({**body, "model": "m"}).encode()
            )
            with urllib.request.urlopen(request, timeout=10) as reply:
                text = reply.read().decode()
            assert '"name": "Skill"' in text
            assert '{\\"skill\\": \\"pdf\\"}' in text
    assert [r.path for r in rec.requests] == ["/v1/messages", "/v1/responses"]


@needs_agent("claude-code")
def test_claude_code_lists_a_project_skill_and_its_built_ins(tmp_path: Path) -> None:
    skills = _skills(tmp_path / "skills", **{"zeta-tool": "Zeta things.", "alpha-tool": "Alpha."})
    cap = capture_agent("claude-code", [f"project={skills}"], workdir=tmp_path / "w")
    assert cap.version == "2.1.328"
    entries = cap.listing.split("\n\n", 1)[1].split("\n")
    # The user's skills come first, alphabetically, then the agent's own.
    assert entries[:2] == ["- alpha-tool: Alpha.", "- zeta-tool: Zeta things."]
    assert cap.snapshot is not None and len(cap.snapshot.builtin_skills) >= 5
    own = {b.name for b in cap.snapshot.builtin_skills}
    assert not own & {"alpha-tool", "zeta-tool"}
    assert any(t["name"] == "Skill" for t in cap.tools)
    out = cap.save(tmp_path / "out")
    assert (out / "listing.txt").read_text() == cap.listing
    assert json.loads((out / "agent.json").read_text())["version"] == "2.1.328"
    assert read_snapshot(out / "snapshot.json") == cap.snapshot


@needs_agent("codex")
def test_codex_lists_system_skills_first_then_the_project_skill(tmp_path: Path) -> None:
    skills = _skills(tmp_path / "skills", **{"db-migrate": "Migrate the database."})
    cap = capture_agent("codex", [f"project={skills}"], workdir=tmp_path / "w")
    assert cap.version == "0.169.0"
    assert cap.listing.startswith("<skills_instructions>")
    assert cap.listing.endswith("</skills_instructions>")
    last = cap.listing.splitlines()[-2]
    assert last == "- db-migrate: Migrate the database. (file: r1/db-migrate/SKILL.md)"
    assert f"`r1` = `{cap.project}/.agents/skills`" in cap.listing
    assert cap.snapshot is not None
    assert [b.name for b in cap.snapshot.builtin_skills][:1] == ["imagegen"]


def test_a_missing_cli_names_the_package_and_version(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillbench._errors import SkillbenchError

    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("SKILLBENCH_CODEX_BIN", raising=False)
    with pytest.raises(SkillbenchError, match=r"npm install -g @openai/codex@0\.169\.0"):
        capture_agent("codex", [])


@pytest.mark.agents
@pytest.mark.parametrize(("agent", "tool"), [("claude-code", "Skill"), ("codex", "exec")])
def test_a_captured_request_replays_with_another_listing_and_message(
    agent: str, tool: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``prompt: agent`` from a real capture: the agent's own messages and tools, with the
    listing and the user's message swapped in exactly once each."""
    from skillbench.agents import store_snapshot
    from skillbench.catalog import load_catalog
    from skillbench.dataset import LabelledRequest
    from skillbench.listing import render_listing
    from skillbench.selectors import Query
    from skillbench.selectors._litellm import build_prompt

    cap = capture_agent(agent, [], workdir=tmp_path / "w")
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    store_snapshot(cap)
    skills = _skills(tmp_path / "skills", **{"tea-timer": "Time a pot of tea."})
    profile = f"{agent}@{cap.version}"  # the captured release, whose snapshot is cached
    catalog = load_catalog([f"project={skills}"], profile=profile)
    listing = render_listing(catalog.skills, profile=profile)
    query = Query(LabelledRequest("r", "steep my oolong please"), listing)
    prompt = build_prompt(query, style="agent")
    sent = json.dumps(prompt.messages, ensure_ascii=False)
    assert sent.count(json.dumps(listing.text, ensure_ascii=False)[1:-1]) == 1
    assert sent.count("steep my oolong please") == 1
    assert "SKILLBENCH_" not in sent
    assert tool in [t["function"]["name"] for t in prompt.tools]
