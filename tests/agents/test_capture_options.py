"""A malformed agent-facing option of ``capture`` and ``fidelity --agent`` is one error line
naming the flag and the value, before anything is installed or run (so no agent CLI is
needed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("flag", "value", "error"),
    [
        ("--usage", "alpha=-1", "error: --usage alpha=-1: counts cannot be negative"),
        ("--usage", "alpha=x", "error: --usage: counts must be whole numbers: ['alpha=x']"),
        ("--env", "FOO", "error: --env 'FOO': expected KEY=VALUE"),
        ("--setting", "=1", "error: --setting '=1': expected KEY=VALUE"),
    ],
)
@pytest.mark.parametrize("command", [["capture"], ["fidelity", "--agent"]])
def test_a_malformed_option_is_one_error_line(
    tmp_path: Path, command: list[str], flag: str, value: str, error: str
) -> None:
    skill = tmp_path / "skills" / "alpha"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: alpha\ndescription: A.\n---\nBody.\n")
    done = subprocess.run(
        [sys.executable, "-m", "skillbench", *command, "claude-code", "skills", flag, value],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(tmp_path)},
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [error]
