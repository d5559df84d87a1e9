"""One writer per run folder, between real processes: a held folder is refused by name, a
killed holder's lock is reported as stale and taken, and one process may hold a folder twice."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.results import LOCK_FILE, FolderBusy, hold_run_folder, read_run

HOLDER = """
import os, sys
from skillbench.results import hold_run_folder
with hold_run_folder(sys.argv[1], command="skillbench run configs/a.yaml"):
    print("held", flush=True)
    if sys.argv[2] == "die":
        os.kill(os.getpid(), 9)
    sys.stdin.read()
"""


def _holder(folder: Path, mode: str) -> subprocess.Popen[str]:
    """A process holding ``folder`` (until its stdin closes, or killed once it holds it)."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline() == "held\n"
    return child


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    child = _holder(tmp_path, "wait")
    yield tmp_path, child
    if child.poll() is None:
        child.kill()
        child.wait()


def test_a_held_folder_is_refused_by_name_until_its_holder_ends(
    held: tuple[Path, subprocess.Popen[str]],
) -> None:
    folder, child = held
    with pytest.raises(FolderBusy) as caught, hold_run_folder(folder):
        pass
    message = str(caught.value)
    assert message.startswith(f"{folder} is being written by pid {child.pid} ")
    assert "(skillbench run configs/a.yaml, started 20" in message
    with pytest.raises(FolderBusy, match=f"pid {child.pid}"):
        read_run(folder)  # a reader is refused too: the results are not final
    assert child.stdin is not None
    child.stdin.close()
    assert child.wait(timeout=30) == 0
    assert not (folder / LOCK_FILE).exists()  # released and removed
    with hold_run_folder(folder):
        assert (folder / LOCK_FILE).is_file()


def test_a_killed_holders_lock_is_reported_stale_and_taken(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    child = _holder(tmp_path, "die")
    assert child.wait(timeout=30) == -signal.SIGKILL
    assert str(child.pid) in (tmp_path / LOCK_FILE).read_text()  # left behind
    with caplog.at_level(logging.WARNING, logger="skillbench"), hold_run_folder(tmp_path):
        mine = (tmp_path / LOCK_FILE).read_text()
    assert f'"pid": {os.getpid()}' in mine
    (message,) = caplog.messages
    assert message.startswith(
        f"{tmp_path}: stale lock of pid {child.pid} (skillbench run configs/a.yaml, started "
    )
    assert message.endswith("), which has ended; taking the folder over")


def test_one_process_may_hold_a_folder_twice(tmp_path: Path) -> None:
    with hold_run_folder(tmp_path):
        with hold_run_folder(tmp_path):
            pass
        assert (tmp_path / LOCK_FILE).is_file()  # still held by the outer block
        with pytest.raises(SkillbenchError, match=r"summary\.json: not found"):
            read_run(tmp_path)  # its own hold does not refuse this process
    assert not (tmp_path / LOCK_FILE).exists()
