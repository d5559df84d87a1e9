"""Copy bombs through capture and ``fidelity --agent``: a skill folder with links to /usr and
/proc/self and a 1 GB sparse file installs in seconds, writes little, is named, and leaves no
temporary folder behind, also when the CLI is stopped with SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.agents.test_install import bomb
from tests.support.agents import needs_agent

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ["claude-code", "codex"]


def _environment(tmp: Path) -> dict[str, str]:
    """The caller's environment with temporary folders and the cache inside the test's."""
    tmp.mkdir(exist_ok=True)
    return {**os.environ, "TMPDIR": str(tmp), "SKILLBENCH_CACHE_DIR": str(tmp.parent / "cache")}


def _skillbench(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    """This checkout's CLI (run from the repository, so its code is the one imported)."""
    return subprocess.run(
        [sys.executable, "-m", "skillbench", *args],
        cwd=ROOT,
        env=_environment(tmp),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _running_in(folder: Path) -> list[str]:
    """Processes whose working directory lies in ``folder`` (an agent left running)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/cwd").startswith(str(folder)):
                found.append(pid)
        except OSError:
            continue
    return found


def _written(root: Path) -> int:
    return sum(p.lstat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


@needs_agent("claude-code")
@needs_agent("codex")
@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("command", ["capture", "fidelity"])
def test_a_bomb_folder_is_captured_in_seconds_named_and_cleaned_up(
    tmp_path: Path, agent: str, command: str
) -> None:
    source = tmp_path / "skills"
    bomb(source)
    tmp = tmp_path / "tmp"
    args = (
        ["capture", agent, f"project={source}", "-o", str(tmp_path / "out"), "--no-snapshot"]
        if command == "capture"
        else ["fidelity", "--agent", agent, f"project={source}"]
    )
    started = time.monotonic()
    done = _skillbench(args, tmp)
    elapsed = time.monotonic() - started
    assert done.returncode in (0, 100), done.stderr
    assert elapsed < 120
    assert f"{source / 'bomb' / 'usr-link'}: a link out of its skill folder" in done.stderr
    assert f"{source / 'bomb' / 'sparse.bin'}: 1,073,741,824 bytes" in done.stderr
    assert list(tmp.iterdir()) == []
    if command == "capture":
        assert _written(tmp_path / "out") < 10 * 1024 * 1024


@needs_agent("codex")
def test_a_capture_that_fails_removes_its_temporary_folder(tmp_path: Path) -> None:
    source = tmp_path / "skills"
    bomb(source)
    tmp = tmp_path / "tmp"
    done = _skillbench(["capture", "codex", f"project={source}", "--usage", "bomb=1"], tmp)
    assert done.returncode == 1
    assert "error: codex keeps no skill-usage history" in done.stderr
    assert list(tmp.iterdir()) == []


@needs_agent("claude-code")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_stopped_fidelity_kills_the_agent_and_removes_the_temporary_folder(
    tmp_path: Path, stop: signal.Signals
) -> None:
    source = tmp_path / "skills"
    bomb(source)
    tmp = tmp_path / "tmp"
    process = subprocess.Popen(
        [sys.executable, "-m", "skillbench", "fidelity", "--agent", "claude-code", str(source)],
        cwd=ROOT,
        env=_environment(tmp),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not list(tmp.rglob(".claude")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp.rglob(".claude")), "the capture never installed its skills"
    while not _running_in(tmp) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _running_in(tmp), "the agent never started"
    process.send_signal(stop)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted" in err
    assert list(tmp.iterdir()) == []
    assert _running_in(tmp) == []


@pytest.mark.agents
@pytest.mark.parametrize("agent", AGENTS)
def test_a_live_run_over_a_bomb_folder_decides_in_seconds_and_cleans_up(
    agent: str, tmp_path: Path
) -> None:
    """Every decision of the live selector installs the cell's skills: the bomb's links and
    sparse file are left out, the decisions are the scripted ones, no temporary folder stays."""
    from tests.agents.test_live_selector import SKILLS, _decisions, _expected, _setup, script
    from tests.support.agents import require_agent
    from tests.support.fake_openai import FakeOpenAI

    require_agent(agent)
    tmp = tmp_path / "tmp"
    with FakeOpenAI(policy=script) as fake:
        config = _setup(tmp_path, agent, fake.base_url, 4, ", model: openai/fake")
        skill = tmp_path / "skills" / SKILLS[0]
        (skill / "usr-link").symlink_to("/usr")
        (skill / "proc-link").symlink_to("/proc/self")
        with open(skill / "sparse.bin", "wb") as sparse:
            sparse.truncate(1 << 30)
        started = time.monotonic()
        done = _skillbench(["run", str(config), "-o", str(tmp_path / "out")], tmp)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 180
    assert _decisions(tmp_path / "out") == _expected(4)
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    notes = [n for row in rows for n in row["detail"].get("install_notes", [])]
    assert any(n.startswith(f"{skill / 'usr-link'}: a link out of its skill folder") for n in notes)
    assert _written(tmp_path / "out") < 10 * 1024 * 1024
    assert list(tmp.iterdir()) == []
