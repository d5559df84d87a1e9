"""The suite on a machine without the agent CLIs: every test that runs one skips, none fails.

The agents' tests are run for real in a child pytest whose PATH holds none of the agents' CLIs
(and no ``SKILLBENCH_*_BIN``): what a fresh clone's ``pytest`` does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from skillbench.agents import AGENTS

ROOT = Path(__file__).resolve().parents[1]


def _without_agents() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not re.fullmatch(r"SKILLBENCH_.*_BIN", k)}
    env.pop("SKILLBENCH_REQUIRE_AGENTS", None)
    kept = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if not any(shutil.which(spec.executable, path=d) for spec in AGENTS.values())
    ]
    env["PATH"] = os.pathsep.join(kept)
    return env


def _pytest(env: dict[str, str], *args: str) -> str:
    command = [sys.executable, "-m", "pytest", "-q", *args]
    env = {**env, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    return done.stdout + done.stderr


def test_without_the_clis_every_agents_test_skips() -> None:
    env = _without_agents()
    marks = ("-m", "agents and not slow")
    collected = _pytest(env, "-n", "0", "tests/agents", *marks, "--collect-only")
    marked = int(re.search(r"(\d+)/\d+ tests collected", collected).group(1))  # type: ignore[union-attr]
    assert marked >= 20, collected
    out = _pytest(env, "-n", "0", "tests/agents", "-rs")
    summary = out.strip().splitlines()[-1]
    assert re.search(rf"\b{marked} skipped\b", summary), out
    assert "failed" not in summary and "error" not in summary, out
    assert "claude-code 2.1.328 is not installed" in out and "codex 0.169.0 is not installed" in out


def test_with_agents_required_a_missing_cli_fails() -> None:
    env = {**_without_agents(), "SKILLBENCH_REQUIRE_AGENTS": "1"}
    nodeid = "tests/agents/test_live_selector.py::test_live_decisions_are_the_scripted_ones"
    out = _pytest(env, "-n", "0", nodeid)
    last = out.strip().splitlines()[-1]
    errors = re.search(r"\b(\d+) errors?\b", last)
    assert errors and int(errors.group(1)) >= 2 and "passed" not in last, out
    assert out.count("is not installed") >= int(errors.group(1)), out
    assert "is not installed" in out


def test_a_mark_that_names_no_agent_fails(tmp_path: Path) -> None:
    """A bare mark on a test with no ``agent`` parameter is a mistake, not a free pass."""
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_runtest_setup\n")
    (tmp_path / "test_unnamed.py").write_text(
        "import pytest\n\n@pytest.mark.agents\ndef test_unnamed() -> None:\n    pass\n"
    )
    out = _pytest(_without_agents(), str(tmp_path), "--rootdir", str(tmp_path))
    assert "names no agent" in out and "1 error" in out, out
