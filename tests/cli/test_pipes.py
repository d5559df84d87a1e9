"""A broken pipe: the reader of skillbench's output leaving is no failure; a pipe to a process
skillbench started breaking is one (the run says so and exits 1, never 0 with no summary)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "datasets" / "devtools" / "skills" / "project"


class PipeBreaker:
    """A selector whose helper process went away: every call breaks its pipe."""

    name = "pipe-breaker"

    def __init__(self, params: object, env: object) -> None:
        del params, env

    def select(self, queries: object) -> list[object]:
        raise BrokenPipeError(32, "Broken pipe")


def _skillbench(*argv: str, cwd: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SKILLBENCH_CACHE_DIR": str(cwd / "cache")}
    return subprocess.Popen(
        [sys.executable, "-m", "skillbench", *argv],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_a_reader_that_leaves_early_ends_the_command_quietly(tmp_path: Path) -> None:
    process = _skillbench("render", "--profile", "all", f"project={CATALOG}", cwd=tmp_path)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10)
    process.stdout.close()
    assert process.wait(timeout=120) == 0
    assert b"Traceback" not in process.stderr.read()


def test_a_broken_pipe_inside_a_run_fails_the_run(tmp_path: Path) -> None:
    (tmp_path / "requests.jsonl").write_text(
        json.dumps({"id": "r1", "text": "write the changelog", "expected": None}) + "\n"
    )
    (tmp_path / "run.yaml").write_text(
        "name: pipes\n"
        f"catalogs: {{own: [{{path: {CATALOG}, source: project}}]}}\n"
        "requests: requests.jsonl\n"
        "profiles: [codebot]\nbudgets: [null]\norderings: [alpha]\n"
        "selectors: [{type: 'tests.cli.test_pipes:PipeBreaker'}]\n"
    )
    process = _skillbench("run", "run.yaml", "-o", "out", "-q", cwd=tmp_path)
    _, err = process.communicate(timeout=300)
    assert process.returncode == 1
    assert "error: " in err.decode() and "Broken pipe" in err.decode()
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["status"] == "failed"
