"""The import's output folder: never an input, written whole or not at all.

An import reads the user's only copy of their logs and replaces an earlier import, so a
wrong ``-o`` must never destroy data and a crash must never leave a mix of old and new
files. The new files are written into a hidden sibling folder, which replaces the output
folder by rename only once everything is written: a kill leaves the old import as it was,
and files of an earlier import that this one does not write (``listings.jsonl`` of an
import of another agent's logs) go with it.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from skillbench._output import OutputError, output_dir
from skillbench._sanitize import printable


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_output(out: Path, inputs: Sequence[Path], owned: Collection[str]) -> Path:
    """``out`` (its real path) once it is known to be safe to replace by an import.

    Raises:
        OutputError: ``out`` is a file, a system path, is or holds one of ``inputs``, or
            holds anything but the files an import writes (``owned``).
    """
    real = Path(os.path.realpath(output_dir(out)))
    for given in inputs:
        if _inside(Path(os.path.realpath(given)), real):
            raise OutputError(
                f"output folder {printable(str(out))} holds the input {printable(str(given))}; "
                "the import would overwrite it: choose another -o"
            )
    foreign = sorted(p.name for p in real.iterdir() if p.name not in owned)
    if foreign:
        shown = ", ".join(printable(name) for name in foreign[:5])
        more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        raise OutputError(
            f"output folder {printable(str(out))} holds files an import does not write "
            f"({shown}{more}); it is replaced whole: choose a new or empty folder"
        )
    return real


def outside(files: Iterator[Path], out: Path) -> Iterator[Path]:
    """``files`` without those inside ``out`` (an output folder placed in a log folder)."""
    real = Path(os.path.realpath(out))
    return (f for f in files if not _inside(Path(os.path.realpath(f)), real))


@contextmanager
def replaced_whole(out: Path) -> Iterator[Path]:
    """A fresh hidden folder beside ``out`` (an existing folder) that replaces it on success.

    On an exception the staging folder is removed and ``out`` is untouched. The swap is
    two renames in one folder (``out`` → ``.out.X.old``, ``.out.X.new`` → ``out``); a crash
    between them leaves ``out`` absent for :func:`finish_swap` to repair on the next import.
    """
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".new", dir=out.parent))
    try:
        yield staging
        os.chmod(staging, stat.S_IMODE(out.stat().st_mode))
        old = staging.with_suffix(".old")
        out.rename(old)
        staging.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        raise OutputError(f"cannot write {printable(str(out))}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def finish_swap(out: Path) -> None:
    """Repair what a crashed import left beside ``out``: with ``out`` gone between the two
    renames, the swap is finished when the new folder is there (it was complete: it is
    renamed only once written), else rolled back to the old one; then every leftover
    staging or old folder of ``out`` is removed."""
    if not out.parent.is_dir():
        return
    pattern = re.compile(rf"\.{re.escape(out.name)}\.[^/]+\.(new|old)")
    left = sorted(p for p in out.parent.iterdir() if pattern.fullmatch(p.name) and p.is_dir())
    if not os.path.lexists(out):
        for old in (p for p in left if p.suffix == ".old"):
            new = old.with_suffix(".new")
            (new if new.is_dir() else old).rename(out)
            break
    for path in left:
        shutil.rmtree(path, ignore_errors=True)
