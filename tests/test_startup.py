"""No command that calls no model imports litellm (its import alone takes seconds)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.startup_bench import REPO, commands, inputs, launch

IN_TURN = """\
import json, sys
from skillbench.cli._main import main
for argv in json.loads(sys.argv[1]):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    print("probe", json.dumps([code, "litellm" in sys.modules]), file=sys.stderr, flush=True)
"""
"""Runs the commands one after another in one process, printing after each its exit code
and whether litellm has been imported by then."""


def test_model_free_commands_do_not_import_litellm(tmp_path: Path) -> None:
    """doctor on a model whose key variable is empty exits 1, every other command 0, and
    after each one litellm is still not in ``sys.modules``."""
    argvs = commands(inputs(tmp_path))
    env = {**os.environ, "SKILLBENCH_UNSET_KEY": ""}
    done = subprocess.run(
        [sys.executable, "-c", IN_TURN, json.dumps(list(argvs.values()))],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=True,
    )
    after = [json.loads(line[6:]) for line in done.stderr.splitlines() if line[:6] == "probe "]
    assert dict(zip(argvs, after, strict=True)) == {
        name: [int(name.startswith("doctor")), False] for name in argvs
    }


@pytest.mark.slow
def test_the_probe_sees_litellm_when_a_command_imports_it(tmp_path: Path) -> None:
    """The check can fail: counting tokens for a model tiktoken does not name loads litellm."""
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "SKILL.md").write_text("---\nname: s\ndescription: d\n---\n")
    argv = ["render", f"project={tmp_path}", "--format", "json", "--model", "claude-sonnet-4-5"]
    assert launch(argv).litellm
