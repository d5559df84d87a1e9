"""Checked output paths and atomic writes (the layer every ``-o`` goes through)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from skillbench._output import OutputError, output_dir, output_file, write_atomic

pytestmark = pytest.mark.timeout(20)


def test_output_dir_refuses_files_and_kernel_paths(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="is an existing file"):
        output_dir(tmp_path / "f")
    for path in ("/proc/sb-out", "/sys/sb-out", "/dev/sb-out"):
        with pytest.raises(OutputError, match="kernel file system"):
            output_dir(path)
    assert output_dir(tmp_path / "a" / "b").is_dir()


def test_output_file_refuses_folders_and_missing_parents(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is an existing folder"):
        output_file(tmp_path)
    with pytest.raises(OutputError, match="does not exist"):
        output_file(tmp_path / "missing" / "x.txt")
    assert output_file(tmp_path / "made" / "x.txt", make_parent=True).parent.is_dir()


def test_write_atomic_keeps_links_and_modes(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o600)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    write_atomic(tmp_path / "fresh.txt", b"bytes")
    assert stat.S_IMODE((tmp_path / "fresh.txt").stat().st_mode) == 0o644
    assert sorted(os.listdir(tmp_path)) == ["fresh.txt", "link.md", "real.md"]


def test_write_atomic_into_a_missing_folder_is_an_output_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="cannot write"):
        write_atomic(tmp_path / "nope" / "x", "data")
