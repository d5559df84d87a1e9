"""Hostile catalogs against lint's output and tune --apply: no forged annotation, no lost
original, no half-written file, no traceback, no read of a device."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tune_project import write_tune_project

from skillbench.catalog import load_catalog
from skillbench.cli._main import main

pytestmark = pytest.mark.timeout(120)

FORGED = "::error file=forged.py,line=1::forged"


def _skill(root: Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_a_folder_name_cannot_forge_an_annotation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    folder = f"x\n{FORGED}\n\x1b[2J"
    _skill(tmp_path, folder, "---\nname: nice\ndescription: Does things.\n---\nBody.\n")
    _skill(tmp_path, "ok", "---\nname: ok\ndescription: Fine.\n---\nBody.\n")
    main(["lint", str(tmp_path), "--format", fmt, "-v"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert "forged" in captured.out  # the finding about that folder is reported ...
    for line in captured.out.splitlines():  # ... but never as a command of its own
        assert not line.startswith("::error file=forged")
        assert "\x1b" not in line
    if fmt == "json":
        assert any(FORGED in json.dumps(f) for f in json.loads(captured.out)["findings"])


def test_github_escaping_of_properties_and_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = "a%b,c:d\re"
    _skill(tmp_path, folder, "---\nname: nice\ndescription: Does things.\n---\nBody.\n")
    main(["lint", str(tmp_path), "--format", "github", "-v"])
    out = capsys.readouterr().out
    # GitHub's workflow-command escaping: % %25, \r %0D, \n %0A; in properties also : %3A, , %2C
    assert "a%25b%2Cc%3Ad%0De" in out


def test_apply_twice_keeps_the_first_backup(tmp_path: Path) -> None:
    config = write_tune_project(tmp_path / "p")
    skill = tmp_path / "p" / "skills" / "flaky-checks" / "SKILL.md"
    original = skill.read_text(encoding="utf-8")
    out = tmp_path / "out"
    assert main(["tune", str(config), "-o", str(out), "--apply", "-q"]) == 0
    tuned_once = skill.read_text(encoding="utf-8")
    assert tuned_once != original
    assert main(["tune", str(config), "-o", str(out), "--apply", "-q"]) == 0
    backup = out / "backup" / "0-project" / "flaky-checks" / "SKILL.md"
    assert backup.read_text(encoding="utf-8") == original
    later = out / "backup-2" / "0-project" / "flaky-checks" / "SKILL.md"
    assert not later.exists() or later.read_text(encoding="utf-8") == tuned_once


def test_kill_during_apply_leaves_a_whole_file(tmp_path: Path) -> None:
    config = write_tune_project(tmp_path / "p")
    skill = tmp_path / "p" / "skills" / "flaky-checks" / "SKILL.md"
    original = skill.read_text(encoding="utf-8")
    marker = tmp_path / "writing"
    # The child stalls in the fsync before each rename (a slow disk) and says which file it
    # is writing; it is killed while the skill file itself is being replaced.
    script = (
        "import os, sys, time\n"
        "def slow(fd):\n"
        "    open(sys.argv[3], 'a').write(os.readlink(f'/proc/self/fd/{fd}') + '\\n')\n"
        "    time.sleep(30)\n"
        "os.fsync = slow\n"
        "from skillbench.cli._main import main\n"
        "main(['tune', sys.argv[1], '-o', sys.argv[2], '--apply', '-q'])\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(config), str(tmp_path / "out"), str(marker)],
        env=env,
    )
    deadline = time.monotonic() + 100
    while time.monotonic() < deadline and child.poll() is None:
        if marker.exists() and str(skill.parent) in marker.read_text(encoding="utf-8"):
            break
        time.sleep(0.05)
    assert child.poll() is None, "apply finished or failed before the kill"
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert skill.read_text(encoding="utf-8") == original
    assert load_catalog([str(skill.parent.parent)]).get("flaky-checks") is not None


def test_output_inside_the_catalog_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_tune_project(tmp_path / "p")
    out = tmp_path / "p" / "skills" / "tuned"
    assert main(["tune", str(config), "-o", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "inside the catalog source" in err
    assert not (out / "catalog").exists()


def test_special_files_in_a_skill_folder_are_not_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_tune_project(tmp_path / "p")
    folder = tmp_path / "p" / "skills" / "deploy"
    os.mkfifo(folder / "pipe")
    (folder / "zero").symlink_to("/dev/zero")
    (folder / "loop").symlink_to(folder / "loop")
    (folder / "dangling").symlink_to(tmp_path / "nowhere")
    (folder / "up").symlink_to(folder)  # a directory link back to its own folder
    outside = tmp_path / "elsewhere" / "SKILL.md"
    outside.parent.mkdir()
    flaky = tmp_path / "p" / "skills" / "flaky-checks" / "SKILL.md"
    outside.write_bytes(flaky.read_bytes())
    flaky.unlink()
    flaky.symlink_to(outside)  # the skill file itself linked from outside, as catalog loads
    before = outside.read_text(encoding="utf-8")
    out = tmp_path / "out"
    assert main(["tune", str(config), "-o", str(out), "--apply"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for name, why in [
        ("pipe", "FIFO"),
        ("zero", "character device"),
        ("loop", "symlink loop"),
        ("dangling", "cannot read"),
        ("up", "directory link loop"),
    ]:
        assert f"{folder / name}" in err and why in err, name
    copied = out / "catalog" / "0-project" / "deploy"
    assert sorted(p.name for p in copied.iterdir()) == ["SKILL.md", "run.sh"]
    assert flaky.is_symlink() and outside.read_text(encoding="utf-8") != before
    backup = out / "backup" / "0-project" / "flaky-checks" / "SKILL.md"
    assert backup.read_text(encoding="utf-8") == before


def test_output_at_an_existing_file_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_tune_project(tmp_path / "p")
    taken = tmp_path / "taken"
    taken.write_text("keep", encoding="utf-8")
    assert main(["tune", str(config), "-o", str(taken), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: output") and "is an existing file" in err
    assert "Traceback" not in err and taken.read_text(encoding="utf-8") == "keep"
