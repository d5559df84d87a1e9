"""``render --profile all`` and the portability lint on one project, every agent.

The fixture is a project with skills in three agents' folders. The expected fate of each
skill for each agent is derived by hand from the agents' rules as captured (docs/agents.md,
docs/profiles/), not from the code:

- ``.claude/skills/pdf-tools``: read by Claude Code and Copilot CLI; Codex reads only
  ``.agents/skills`` and ``~/.codex/skills``, Gemini CLI ``.gemini/skills`` and
  ``.agents/skills``: both never find it.
- ``.agents/skills/db-migrate`` (a 1,100-character description): not read by Claude Code;
  Codex lists it cut to 1,021 characters and "..." (truncated); Gemini CLI has no limit (full);
  Copilot CLI does not load a description over 1,024 characters (hidden).
- ``.agents/skills/manual`` (``disable-model-invocation: true``): not read by Claude Code;
  Copilot CLI honours the field (disabled); Codex and Gemini CLI do not read it (full).
- ``.github/skills/gh-only``: only Copilot CLI reads ``.github/skills`` (full there).
- Qwen Code reads ``.qwen/skills`` and ``.agents/skills``, opencode ``.opencode/skills``,
  ``.claude/skills`` and ``.agents/skills`` (captured with a probe skill in each folder).
  Neither has a description limit that 1,106 characters meet (Qwen Code cuts descriptions to
  their first line only past 8,000 characters of listing; this one is a single line), so
  db-migrate is full for both; Qwen Code honours ``disable-model-invocation`` (disabled),
  opencode does not read it (full).

No snapshot is in the cache, so no agent's built-in skills join the listings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.authoring import lint_sources
from skillbench.cli._main import main

LONG = "Migrates databases safely. " * 41  # 1,107 characters, 1,106 once YAML trims it
EXPECTED = {
    "claude-code": {
        "pdf-tools": "full",
        "db-migrate": "not_found",
        "manual": "not_found",
        "gh-only": "not_found",
    },
    "codex": {
        "pdf-tools": "not_found",
        "db-migrate": "truncated",
        "manual": "full",
        "gh-only": "not_found",
    },
    "gemini-cli": {
        "pdf-tools": "not_found",
        "db-migrate": "full",
        "manual": "full",
        "gh-only": "not_found",
    },
    "copilot-cli": {
        "pdf-tools": "full",
        "db-migrate": "hidden",
        "manual": "disabled",
        "gh-only": "full",
    },
    "qwen-code": {
        "pdf-tools": "not_found",
        "db-migrate": "full",
        "manual": "disabled",
        "gh-only": "not_found",
    },
    "opencode": {
        "pdf-tools": "full",
        "db-migrate": "full",
        "manual": "full",
        "gh-only": "not_found",
    },
}


def _skill(folder: Path, name: str, description: str, extra: str = "") -> None:
    (folder / name).mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {description}\n{extra}---\nBody of {name}.\n"
    (folder / name / "SKILL.md").write_text(text, encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "empty-cache"))
    root = tmp_path / "proj"
    _skill(root / ".claude" / "skills", "pdf-tools", "Fills PDF forms.")
    _skill(root / ".agents" / "skills", "db-migrate", LONG)
    _skill(
        root / ".agents" / "skills", "manual", "Manual only.", "disable-model-invocation: true\n"
    )
    _skill(root / ".github" / "skills", "gh-only", "GitHub things.")
    return [f"project={root / d / 'skills'}" for d in (".claude", ".agents", ".github")]


def test_every_agent_sees_what_its_rules_say(
    project: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", *project, "--profile", "all", "--format", "json"]) == 0
    agents = {a["profile"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    for profile, fates in EXPECTED.items():
        got = {s["name"]: s["status"] for s in agents[profile]["skills"]}
        assert got == fates, profile
    codex = next(s for s in agents["codex"]["skills"] if s["name"] == "db-migrate")
    assert "db-migrate: " + LONG.strip()[:1021] + "... (file: " in agents["codex"]["text"]
    assert codex["position"] == 0
    hidden = next(s for s in agents["copilot-cli"]["skills"] if s["status"] == "hidden")
    assert "1,024" in hidden["why"]
    lost = next(s for s in agents["gemini-cli"]["skills"] if s["name"] == "pdf-tools")
    assert "does not read .claude/skills" in lost["why"]
    assert agents["gemini-cli"]["tokens"] > 0 and agents["gemini-cli"]["chars"] > len(LONG)


def test_text_table_has_one_row_per_agent(
    project: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", *project, "--profile", "all"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in out[1 : 1 + len(EXPECTED)]}
    # Columns: agent, version, full, cut, names, dropped, hidden, disabled, inactive,
    # not found, rejected, chars, tokens.
    assert rows["copilot-cli"][1:10] == ["1.0.102", "2", "0", "0", "0", "1", "1", "0", "0"]
    assert rows["claude-code"][2] == "1" and rows["claude-code"][9] == "3"
    assert "gemini-cli: pdf-tools not_found: gemini-cli does not read .claude/skills" in "\n".join(
        out
    )


def test_lint_names_the_agents_each_portability_finding_affects(project: list[str]) -> None:
    report = lint_sources(project)
    found = {
        (f.rule.id, f.skill, f.profile): f.message
        for f in report.findings
        if f.rule.id.startswith("SB8")
    }
    assert set(found) == {
        ("SB801", "pdf-tools", None),
        ("SB801", "db-migrate", None),
        ("SB801", "manual", None),
        ("SB801", "gh-only", None),
        ("SB802", "db-migrate", "copilot-cli"),
        ("SB803", "manual", None),
    }
    assert (
        "never found by cline 3.0.65, codex 0.171.0, gemini-cli 0.61.0, openharness 0.1.9, "
        "pi 0.73.1, qwen-code 0.24.4" in found[("SB801", "pdf-tools", None)]
    )
    assert (
        "never found by claude-code 2.1.332, cline 3.0.65, codex 0.171.0, deepagents-code 0.1.57, "
        "gemini-cli 0.61.0, kilo-code 7.7.7, opencode 1.18.33, openharness 0.1.9, pi 0.73.1, "
        "qwen-code 0.24.4" in found[("SB801", "gh-only", None)]
    )
    manual = found[("SB803", "manual", None)]
    assert "cline 3.0.65, codex 0.171.0, deepagents-code 0.1.57, gemini-cli 0.61.0, kilo" in manual
    assert "kept out by copilot-cli, pi, qwen-code" in manual
    assert "kept out by copilot-cli" in found[("SB803", "manual", None)]
