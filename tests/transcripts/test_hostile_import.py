"""Hostile input to ``import`` and the other commands' ``-o``: nothing lost, no hang, no
traceback, no secret written, nothing raw on the terminal."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from transcript_helpers import FIXTURES

from skillbench.cli._main import main
from skillbench.transcripts import import_logs
from skillbench.transcripts._import_dir import finish_swap

pytestmark = pytest.mark.timeout(60)

CLAUDE_LOG = FIXTURES / "claude" / "projects" / "-home-alice-proj" / "sess-1111.jsonl"
CODEX_LOG = FIXTURES / "codex" / "rollout-old.jsonl"
ESC = "\x1b"


def _claude_turn(text: str, n: int = 0) -> str:
    return json.dumps(
        {
            "type": "user",
            "uuid": f"u-{n}",
            "sessionId": "s-1",
            "timestamp": "2026-11-02T09:00:05.000Z",
            "version": "2.1.0",
            "isSidechain": False,
            "userType": "external",
            "message": {"role": "user", "content": text},
        }
    )


def _codex_turn(text: str) -> str:
    meta = {"id": "cx-1", "timestamp": "2025-06-01T09:00:00.000Z", "cli_version": "0.20.0"}
    lines = [
        {"timestamp": "2025-06-01T09:00:00.000Z", "type": "session_meta", "payload": meta},
        {
            "timestamp": "2025-06-01T09:00:02.000Z",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": text},
        },
    ]
    return "\n".join(json.dumps(line) for line in lines)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def _error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, err
    return lines[0]


# --- the user's data is never destroyed -----------------------------------------------------


def test_output_that_is_the_log_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "requests.jsonl"
    log.write_bytes(CLAUDE_LOG.read_bytes())
    code, _, err = _cli(["import", "claude-code", str(log), "-o", str(tmp_path)], capsys)
    assert code == 1 and "holds the input" in _error_line(err)
    assert log.read_bytes() == CLAUDE_LOG.read_bytes()


def test_output_holding_other_files_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.md").write_text("mine", encoding="utf-8")
    code, _, err = _cli(
        ["import", "claude-code", str(CLAUDE_LOG), "-o", str(tmp_path / "out")], capsys
    )
    assert code == 1 and "notes.md" in _error_line(err)
    assert (tmp_path / "out" / "notes.md").read_text(encoding="utf-8") == "mine"


def test_output_inside_the_log_folder_is_not_read_back(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "s.jsonl").write_bytes(CLAUDE_LOG.read_bytes())
    first = import_logs("claude-code", [logs], logs / "imported")
    again = import_logs("claude-code", [logs], logs / "imported")
    assert first.files == again.files == 1 and first.requests == again.requests > 0


def test_a_codex_import_removes_the_listings_of_a_claude_import(tmp_path: Path) -> None:
    out = tmp_path / "out"
    import_logs("claude-code", [CLAUDE_LOG], out)
    assert (out / "listings.jsonl").exists()
    import_logs("codex", [CODEX_LOG], out)
    assert sorted(p.name for p in out.iterdir()) == [
        "diagnostics.txt",
        "requests.jsonl",
        "usage.json",
    ]


def test_a_reimport_killed_half_way_leaves_the_old_output(tmp_path: Path) -> None:
    out = tmp_path / "out"
    import_logs("claude-code", [CLAUDE_LOG], out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    big = tmp_path / "big.jsonl"
    with big.open("w", encoding="utf-8") as fh:
        for n in range(200_000):
            fh.write(_claude_turn(f"request number {n} about merging pdf files", n) + "\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    argv = [sys.executable, "-m", "skillbench", "import", "claude-code", str(big), "-o", str(out)]
    child = subprocess.Popen(argv, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 40
    staged: list[Path] = []
    while time.monotonic() < deadline and child.poll() is None:
        staged = [p / "requests.jsonl" for p in tmp_path.glob(".out.*.new")]
        if staged and staged[0].exists() and staged[0].stat().st_size > 100_000:
            break
        time.sleep(0.01)
    assert child.poll() is None, "the import finished before it could be killed"
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert staged, "no staging folder seen"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


CRASH_BETWEEN_RENAMES = """
import os, sys
from pathlib import Path
from skillbench.cli._main import main

rename = Path.rename


def crashing(self, target):
    if self.name.endswith(".new"):  # the second rename of the swap: die before it
        os._exit(9)
    return rename(self, target)


Path.rename = crashing
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("left", ["new", "old-only"])
def test_a_crash_between_the_two_renames_is_repaired_by_the_next_import(
    tmp_path: Path, left: str
) -> None:
    """A process killed after ``out`` → ``.old`` and before ``.new`` → ``out``: the next
    import finishes the swap (the new folder was complete) or, with the new one gone, rolls
    back to the old; either way no hidden folder is left and the import runs."""
    out = tmp_path / "out"
    import_logs("claude-code", [CLAUDE_LOG], out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    argv = [sys.executable, "-c", CRASH_BETWEEN_RENAMES, "import", "codex", str(CODEX_LOG)]
    done = subprocess.run([*argv, "-o", str(out)], env=env, check=False)
    assert done.returncode == 9 and not out.exists()
    (new,) = tmp_path.glob(".out.*.new")
    if left == "old-only":
        shutil.rmtree(new)
    finish_swap(out)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    names = sorted(p.name for p in out.iterdir())
    if left == "new":
        assert names == ["diagnostics.txt", "requests.jsonl", "usage.json"]  # the codex import
    else:
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    import_logs("codex", [CODEX_LOG], out)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


# --- nothing hangs or explodes --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "dev-zero-link", "loop-link"])
@pytest.mark.parametrize("walk", [False, True], ids=["given", "walked"])
def test_special_files_are_refused_without_hanging(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, walk: bool
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    log = logs / "hostile.jsonl"
    if kind == "fifo":
        os.mkfifo(log)
    elif kind == "dev-zero-link":
        log.symlink_to("/dev/zero")
    else:
        log.symlink_to(log)
    given = logs if walk else log
    code, _, err = _cli(["import", "claude-code", str(given), "-o", str(tmp_path / "o")], capsys)
    expected = {"fifo": "FIFO", "dev-zero-link": "character device", "loop-link": "symlink loop"}
    # Named, it is an unreadable input; found by a walk, a note (and here nothing else).
    severity = "note" if walk else "skipped"
    assert code == 1 and f"{log}: {severity}: " in err and expected[kind] in err


def test_special_files_beside_a_real_log_are_noted_and_the_log_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "real.jsonl").write_text("".join(_claude_turn(f"hi {i}", i) + "\n" for i in range(3)))
    os.mkfifo(logs / "pipe.jsonl")
    (logs / "zero.jsonl").symlink_to("/dev/zero")
    code, _, err = _cli(["import", "claude-code", str(logs), "-o", str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert f"{logs / 'pipe.jsonl'}: note: a FIFO" in err
    assert f"{logs / 'zero.jsonl'}: note: a character device" in err
    assert "3 requests" in err
    rows = (tmp_path / "o" / "requests.jsonl").read_text().splitlines()
    assert [json.loads(r)["text"] for r in rows] == ["hi 0", "hi 1", "hi 2"]
    diagnostics = (tmp_path / "o" / "diagnostics.txt").read_text()
    assert "pipe.jsonl: note:" in diagnostics and "zero.jsonl: note:" in diagnostics


def _bomb(path: Path, frames: int, payload: bytes = b"\0") -> Path:
    """Concatenated frames of 64 MiB of ``payload`` each: a few KiB on disk per frame."""
    import zstandard

    frame = zstandard.ZstdCompressor(level=19).compress(payload * (64 * 1024 * 1024))
    path.write_bytes(frame * frames)
    return path


@pytest.mark.parametrize("payload", [b"\0", b"\n"], ids=["one-line", "many-lines"])
def test_zstd_bomb_is_refused_with_bounded_memory(tmp_path: Path, payload: bytes) -> None:
    bomb = _bomb(tmp_path / "bomb.jsonl.zst", 64, payload)  # 4 GiB from a few hundred KiB
    # VmHWM is this process image's own peak; ru_maxrss would include the forking worker's.
    script = (
        "import re, sys\n"
        "from skillbench.cli._main import main\n"
        "code = main(['import', 'codex', sys.argv[1], '-o', sys.argv[2]])\n"
        "status = open('/proc/self/status').read()\n"
        "print(code, re.search(r'VmHWM:\\s+(\\d+) kB', status).group(1))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(bomb), str(tmp_path / "o")],
        capture_output=True,
        text=True,
        env=env,
        timeout=50,
    )
    code, peak_kib = map(int, done.stdout.split())
    assert code == 1 and "Traceback" not in done.stderr
    assert f"{bomb}:1: skipped: decompresses more than 1000 times its size" in done.stderr
    assert "zstd bomb" in (tmp_path / "o" / "diagnostics.txt").read_text(encoding="utf-8")
    assert peak_kib < 400 * 1024, f"peak memory {peak_kib} KiB"
    assert os.path.getsize(bomb) < 1024 * 1024


def test_deeply_nested_line_is_a_located_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_text(_claude_turn("fine") + "\n" + "[" * 100_000 + "\n", encoding="utf-8")
    code, _, err = _cli(["import", "claude-code", str(log), "-o", str(tmp_path / "o")], capsys)
    assert code == 1 and f"{log}:2: skipped: JSON nested deeper than 64 levels" in err
    rows = (tmp_path / "o" / "requests.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(r)["text"] for r in rows] == ["fine"]
    skills = FIXTURES / "skills"
    code, _, err = _cli(["fidelity", str(skills), "--listings", str(log)], capsys)
    assert code == 1 and f"{log}:2: skipped: JSON nested deeper" in err


# --- every -o: one clear error line ---------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("import-at-file", "is an existing file"),
        ("import-under-proc", "kernel file system"),
        ("overlap-into-missing-folder", "does not exist"),
        ("lint-at-folder", "is an existing folder"),
    ],
)
def test_bad_output_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, message: str
) -> None:
    skills = str(FIXTURES / "skills")
    a_file = tmp_path / "file.txt"
    a_file.write_text("keep", encoding="utf-8")
    argv = {
        "import-at-file": ["import", "claude-code", str(CLAUDE_LOG), "-o", str(a_file)],
        "import-under-proc": ["import", "claude-code", str(CLAUDE_LOG), "-o", "/proc/sb/x"],
        "overlap-into-missing-folder": [
            "overlap",
            skills,
            "--no-embeddings",
            "-o",
            str(tmp_path / "missing" / "o.txt"),
        ],
        "lint-at-folder": ["lint", skills, "-o", str(tmp_path)],
    }[case]
    code, _, err = _cli(argv, capsys)
    assert code == 1 and message in _error_line(err)
    assert a_file.read_text(encoding="utf-8") == "keep"


def test_view_at_an_existing_folder_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _cli(["view", str(tmp_path / "run"), "-o", str(tmp_path), "-q"], capsys)
    assert code == 1 and "is an existing folder" in _error_line(err)
