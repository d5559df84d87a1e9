"""Writing outputs safely: checked ``-o`` destinations and writes a kill cannot half-finish.

An output path comes from the user and may be anything: an existing file where a folder is
expected, a folder where a file is expected, a place under ``/proc``, a folder that does not
exist. Each is one clear error here, before any work is done, instead of a traceback after
it. Files are written to a temporary sibling and renamed over the target, so a reader (or
a kill -9) sees the old content or the new, never half of it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from skillbench._errors import SkillbenchError

_SYSTEM_ROOTS = ("/proc", "/sys", "/dev")
"""Kernel file systems: writing there reconfigures the machine or fails obscurely."""


_NEW_FILE_MODE = 0o644
"""A new output is readable by all, as a plain write would leave it (a temporary file is
created private)."""


class OutputError(SkillbenchError):
    """An output destination that cannot be used; says which and why."""


def _refuse_system(path: Path) -> None:
    resolved = str(path.resolve())
    for root in _SYSTEM_ROOTS:
        if resolved == root or resolved.startswith(root + "/"):
            raise OutputError(f"output {path} is under {root}, a kernel file system; not written")


def output_dir(path: str | os.PathLike[str]) -> Path:
    """``path`` as an output folder, created (with its parents) when missing.

    Raises:
        OutputError: it is an existing file, under ``/proc``, ``/sys`` or ``/dev``, or it
            cannot be created.
    """
    out = Path(path)
    _refuse_system(out)
    if out.exists() and not out.is_dir():
        raise OutputError(f"output {out} is an existing file; -o needs a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {out}: {exc.strerror or exc}") from None
    return out


def output_file(path: str | os.PathLike[str], *, make_parent: bool = False) -> Path:
    """``path`` as an output file, not a folder; its folder must exist unless ``make_parent``.

    Raises:
        OutputError: it is an existing folder, its folder is missing (or cannot be made),
            or it is under ``/proc``, ``/sys`` or ``/dev``.
    """
    out = Path(path)
    _refuse_system(out)
    if out.is_dir():
        raise OutputError(f"output {out} is an existing folder; -o needs a file name")
    if make_parent:
        output_dir(out.parent)
    elif not out.parent.is_dir():
        raise OutputError(f"output folder {out.parent} does not exist; create it first")
    return out


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a synced temporary sibling and a rename.

    A symlink at ``path`` is written through (its target is replaced, the link kept).

    Raises:
        OutputError: the file or its folder cannot be written.
    """
    target = Path(os.path.realpath(path))
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            shutil.copymode(target, tmp)
        else:
            os.chmod(tmp, _NEW_FILE_MODE)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:  # Ctrl-C mid-write: no temporary file left beside the target
        Path(tmp).unlink(missing_ok=True)
        raise


def write_output(path: str | os.PathLike[str], text: str) -> None:
    """Write a command's ``-o`` file: checked with :func:`output_file`, written atomically."""
    write_atomic(output_file(path), text)
