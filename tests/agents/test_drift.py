"""``skillbench agents check`` tells Codex 0.169.0 from 0.171.0, and an unverified release
shows as drift with its likely cause.

Both CLIs are real: the pinned 0.169.0 on PATH, 0.171.0 through
``SKILLBENCH_CODEX_0_171_0_BIN``. The probe catalog holds about 47 KB of descriptions, more
than either release's budget (5,440 tokens for 0.169.0's default model, 10,000 for
0.171.0's), so the two releases' captures differ and each matches only its own rules.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.agents import Installed, capture_agent, check_agent, installed_agents
from skillbench.agentspec import AGENT_SPECS
from tests.support.agents import agent_record, executable, needs_agent

NEWEST = "0.171.0"
ROOT = Path(__file__).parents[2]
CLI = (sys.executable, "-m", "skillbench")


def _codex(version: str) -> Installed:
    path = executable("codex", version)
    return next(one for one in installed_agents(["codex"]) if one.executable == path)


@needs_agent("codex")
@needs_agent("codex", NEWEST)
def test_check_tells_0_169_from_0_171() -> None:
    old, new = check_agent(_codex("0.169.0")), check_agent(_codex(NEWEST))
    assert (old.installed.version, new.installed.version) == ("0.169.0", NEWEST)
    assert old.matches == ("0.169.0",) and old.ok
    assert new.matches == (NEWEST,) and new.ok
    assert old.verdict() == "matches version 0.169.0; differs from 0.171.0"
    assert new.verdict() == "matches version 0.171.0; differs from 0.169.0"
    assert (old.model, new.model) == ("gpt-6.1-sol", "gpt-6.2-sol")
    # The same skills: 0.171.0's listing is longer, as a larger window lets more through.
    assert len(dict(new.results)[NEWEST].listing) > len(dict(old.results)["0.169.0"].listing)


@needs_agent("codex", NEWEST)
def test_an_unverified_release_is_drift_with_its_likely_cause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With 0.171.0 taken out of the profile, the installed 0.171.0 is unverified: the
    capture says so, --strict-agents refuses it, and the check names the difference."""
    codex = AGENT_SPECS.get("codex")
    with agent_record(replace(codex, releases=codex.releases[:1])):
        _unverified_newest(monkeypatch)


def _unverified_newest(monkeypatch: pytest.MonkeyPatch) -> None:
    check = check_agent(_codex(NEWEST))
    assert not check.ok and check.matches == ()
    verdict = check.verdict()
    assert verdict.startswith("differs from version 0.169.0 at byte ")
    assert "budget or window: the agent listed more text" in verdict
    assert "gpt-6.2-sol" in verdict
    cap = capture_agent("codex", executable=executable("codex", NEWEST), snapshot=False)
    assert cap.notes and "codex 0.171.0 is installed but" in cap.notes[0]
    monkeypatch.setenv("SKILLBENCH_STRICT_AGENTS", "1")
    with pytest.raises(SkillbenchError, match=re.escape("--strict-agents: codex 0.171.0")):
        capture_agent("codex", executable=executable("codex", NEWEST), snapshot=False)


@needs_agent("codex")
@needs_agent("codex", NEWEST)
def test_agents_check_on_the_command_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [*CLI, "agents", "check", "--agent", "codex", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    checks = {c["version"]: c for c in json.loads(done.stdout)["checks"]}
    assert checks["0.169.0"]["verdict"] == "matches version 0.169.0; differs from 0.171.0"
    assert checks[NEWEST]["verdict"] == "matches version 0.171.0; differs from 0.169.0"
    listed = subprocess.run(
        [*CLI, "agents", "--agent", "codex"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert listed.returncode == 0
    assert "codex (@openai/codex): verified 0.169.0, 0.171.0; CI pins 0.169.0" in listed.stdout
    assert "installed 0.171.0 [verified] via SKILLBENCH_CODEX_0_171_0_BIN" in listed.stdout
