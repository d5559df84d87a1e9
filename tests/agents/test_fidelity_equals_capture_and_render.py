"""``fidelity --agent`` gives the verdict of ``capture`` followed by ``render``, option by option.

Every option ``capture`` accepts (``--model``, ``--setting``, ``--env``, ``--usage``,
``--prompt``, ``--timeout``) goes through both paths on the devtools catalog in three scopes
(its listing overflows Claude Code's budget and holds a ``paths`` skill, ``db-migration``).
The render flags each capture option stands for are written here by hand, from what the
option does in the agent: ``SLASH_COMMAND_TOOL_CHAR_BUDGET`` is the budget in characters,
``skillListingBudgetFraction`` the budget's fraction of the window, a usage count recorded
just now scores its count (``--half-life inf``), ``claude-sonnet-4-6`` has a 200,000-token
window counted at 4 characters a token; Codex's roots table names the capture's folders.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.agents import needs_agent

ROOT = Path(__file__).resolve().parents[2]
DEVTOOLS = ROOT / "datasets" / "devtools" / "skills"
USAGE = {"changelog": 4, "commit-message": 2, "devtools-plugin:k8s-manifest": 9}
OVERRIDES = json.dumps({"review": "name-only", "css-fix": "off"})

CLAUDE_CASES: dict[str, tuple[list[str], list[str]]] = {
    "defaults": ([], []),
    "env-budget-800": (["--env", "SLASH_COMMAND_TOOL_CHAR_BUDGET=800"], ["--budget", "800"]),
    "fraction-and-usage": (
        ["--setting", "skillListingBudgetFraction=0.003"]
        + [arg for name, n in USAGE.items() for arg in ("--usage", f"{name}={n}")],
        ["-O", "budget_fraction=0.003", "--usage", "{usage}", "--half-life", "inf"],
    ),
    "entry-cap-and-overrides": (
        ["--setting", "skillListingMaxDescChars=120", "--setting", f"skillOverrides={OVERRIDES}"],
        ["-O", "entry_cap=120", "-O", f"skill_overrides={OVERRIDES}"],
    ),
    "older-model": (
        ["--model", "claude-sonnet-4-6"],
        ["-O", "context_window=200000", "-O", "chars_per_token=4"],
    ),
    "prompt-and-timeout": (["--prompt", "fix the flaky test", "--timeout", "150"], []),
}
CODEX_CASES: dict[str, tuple[list[str], list[str]]] = {
    "defaults": ([], []),
    "context-window-setting": (
        ["--setting", "model_context_window=60000"],
        ["-O", "context_window=60000"],
    ),
    "usage-refused": (["--usage", "changelog=1"], []),
}


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skillbench", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _sources(agent: str, tmp_path: Path) -> list[str]:
    plugin = DEVTOOLS / "plugin"
    if agent == "claude-code":
        plugin = tmp_path / "devtools-plugin"
        shutil.copytree(DEVTOOLS / "plugin", plugin / "skills")
        (plugin / ".claude-plugin").mkdir()
        (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "devtools-plugin"}')
    return [f"user={DEVTOOLS / 'user'}", f"project={DEVTOOLS / 'project'}", f"plugin={plugin}"]


def _render_verdict(
    agent: str, sources: list[str], flags: list[str], out: Path, env: dict[str, str]
) -> int:
    """Render the capture in ``out`` with ``flags``: 0 identical, 100 not."""
    described = json.loads((out / "agent.json").read_text())
    if agent == "codex":
        home, project = described["home"], described["project"]
        roots = {
            "project": f"{project}/.agents/skills",
            "user": f"{home}/.agents/skills",
            "plugin": f"{home}/.codex/skills",
            "extra": f"{home}/.codex/skills",
            "bundled": f"{home}/.codex/skills/.system",
        }
        flags = [*flags, "-O", f"roots={json.dumps(roots)}"]
    release = f"{agent}@{described['version']}"  # the captured release's rules and snapshot
    rendered = _cli(["render", *sources, "--profile", release, *flags, "--quiet"], env)
    assert rendered.returncode == 0, rendered.stderr
    recorded = (out / "listing.txt").read_text(encoding="utf-8")
    return 0 if rendered.stdout == recorded + "\n" else 100


def _same_verdict(agent: str, case: tuple[list[str], list[str]], tmp_path: Path) -> int:
    options, flags = case
    env = {**os.environ, "SKILLBENCH_CACHE_DIR": str(tmp_path / "cache")}
    usage = tmp_path / "usage.json"
    now = datetime.now(UTC).isoformat()
    usage.write_text(json.dumps({k: {"count": n, "last_used": now} for k, n in USAGE.items()}))
    flags = [str(usage) if f == "{usage}" else f for f in flags]
    sources = _sources(agent, tmp_path)
    fidelity = _cli(["fidelity", "--agent", agent, *sources, *options], env)
    out = tmp_path / "capture"
    captured = _cli(["capture", agent, *sources, *options, "-o", str(out), "--quiet"], env)
    if captured.returncode != 0:
        verdict = captured.returncode
    else:
        verdict = _render_verdict(agent, sources, flags, out, env)
    assert fidelity.returncode == verdict, fidelity.stdout + fidelity.stderr
    return verdict


SLOW = {"older-model", "prompt-and-timeout", "context-window-setting"}
"""Cases left to ``-m slow`` runs: each costs two captures of about 20 s."""


def _cases(cases: dict[str, tuple[list[str], list[str]]]) -> list[object]:
    return [pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c for c in cases]


@needs_agent("claude-code")
@pytest.mark.parametrize("case", _cases(CLAUDE_CASES))
def test_claude_code_fidelity_is_capture_then_render(tmp_path: Path, case: str) -> None:
    assert _same_verdict("claude-code", CLAUDE_CASES[case], tmp_path) == 0


@needs_agent("codex")
@pytest.mark.parametrize("case", _cases(CODEX_CASES))
def test_codex_fidelity_is_capture_then_render(tmp_path: Path, case: str) -> None:
    expected = 1 if case == "usage-refused" else 0
    assert _same_verdict("codex", CODEX_CASES[case], tmp_path) == expected
