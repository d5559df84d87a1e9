"""One writer per run folder: a run holds its folder while it writes, and others are refused.

The holder keeps an OS lock (``flock``) on ``.skillbench.lock`` in the folder, and the file
names it: pid, host, start time and command line. A second ``run`` (``--resume`` and
``--overwrite`` too) on the same folder is refused by name until the first ends, and readers
(``read_run``: report, view, compare, check, bless) refuse a folder whose results are still
being written. The kernel drops the lock when its process dies however it dies, so a lock
file left by a killed process no longer locks anything: the next writer reports it as stale
and takes the folder. A process may hold a folder more than once (``run`` holds it for the
replay and for the report after it).
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import shlex
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError

LOCK_FILE = ".skillbench.lock"

_log = logging.getLogger("skillbench")
_held: dict[str, int] = {}
"""Folders this process holds (real path → depth), so holding one again is a no-op."""
_guard = threading.Lock()
_NAMED_WITHIN_S = 2.0
"""How long a refused process waits for a fresh holder to write its name."""


class Holder(NamedTuple):
    """Who holds a run folder."""

    pid: int
    host: str
    started: str
    command: str

    def describe(self) -> str:
        where = "" if self.host == socket.gethostname() else f" on {self.host}"
        return f"pid {self.pid}{where} ({self.command}, started {self.started})"


class FolderBusy(SkillbenchError):
    """Another process is writing the run folder."""


def command_line() -> str:
    """This process's command, as a person would type it (``skillbench run c.yaml``)."""
    argv = sys.argv or ["python"]
    name = Path(argv[0]).name
    if name == "__main__.py":  # python -m skillbench
        name = "skillbench"
    return shlex.join([name, *argv[1:]])


def _holder(text: str) -> Holder | None:
    try:
        data = json.loads(text)
        return Holder(int(data["pid"]), str(data["host"]), str(data["started"]), data["command"])
    except (ValueError, KeyError, TypeError):
        return None


def _read(fd: int) -> str:
    return os.pread(fd, 65_536, 0).decode("utf-8", "replace")


def busy_message(run_dir: Path, holder: Holder | None) -> str:
    who = holder.describe() if holder is not None else "another process (not yet named)"
    return f"{run_dir} is being written by {who}; wait for it to end, or use another folder"


def _refuse(run_dir: Path, fd: int) -> FolderBusy:
    """The refusal naming the holder of ``fd``'s lock (waiting briefly for a fresh holder,
    which takes the lock before it writes its name)."""
    deadline = time.monotonic() + _NAMED_WITHIN_S
    holder = _holder(_read(fd))
    while holder is None and time.monotonic() < deadline:
        time.sleep(0.05)
        holder = _holder(_read(fd))
    return FolderBusy(busy_message(run_dir, holder))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _retrying(take: Callable[[], None]) -> None:
    """``take()`` a lock, trying again for a moment: a reader checking the folder holds a
    shared lock for an instant, which must not read as a writer."""
    for _ in range(9):
        try:
            return take()
        except BlockingIOError:
            time.sleep(0.02)
    take()


def _lock(fd: int, run_dir: Path, path: Path) -> None:
    """Take ``fd``'s exclusive lock, or raise ``FolderBusy``. Where the file system has no
    ``flock`` the pid the file names decides (a live one on this host holds the folder)."""
    try:
        _retrying(lambda: fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB))
    except BlockingIOError:
        raise _refuse(run_dir, fd) from None
    except OSError as exc:
        if exc.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
            raise SkillbenchError(f"{path}: cannot lock ({exc.strerror})") from None
        holder = _holder(_read(fd))
        if holder is not None and holder.host == socket.gethostname() and _alive(holder.pid):
            raise FolderBusy(busy_message(run_dir, holder)) from None


def _open_locked(run_dir: Path) -> int:
    """An open, locked descriptor of the folder's lock file (the file still in place)."""
    path = run_dir / LOCK_FILE
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise SkillbenchError(f"{run_dir}: cannot write there ({exc.strerror})") from None
        try:
            _lock(fd, run_dir, path)
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False  # the last holder removed the file as we opened it: open the new one
        except BaseException:
            os.close(fd)
            raise
        if same:
            return fd
        os.close(fd)


@contextmanager
def hold_run_folder(run_dir: str | Path, command: str | None = None) -> Iterator[Path]:
    """Hold ``run_dir`` (an existing folder) for writing while the block runs.

    A lock file left by a process that ended without releasing it is reported (a warning on
    the ``skillbench`` logger) and taken over.

    Raises:
        FolderBusy: another process holds the folder; the message names it.
    """
    folder = Path(run_dir)
    key = os.path.realpath(folder)
    with _guard:
        if key in _held:
            _held[key] += 1
            nested = True
        else:
            nested = False
    if nested:
        try:
            yield folder
        finally:
            with _guard:
                _held[key] -= 1
        return
    fd = _open_locked(folder)
    try:
        stale = _holder(_read(fd))
        if stale is not None and stale.pid != os.getpid():
            gone = "has ended" if not _alive(stale.pid) else "no longer holds it"
            _log.warning(
                "%s: stale lock of %s, which %s; taking the folder over",
                folder,
                stale.describe(),
                gone,
            )
        me = Holder(
            os.getpid(),
            socket.gethostname(),
            datetime.now(UTC).isoformat(timespec="seconds"),
            command or command_line(),
        )
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(me._asdict()) + "\n").encode("utf-8"), 0)
        with _guard:
            _held[key] = 1
        try:
            yield folder
        finally:
            with _guard:
                del _held[key]
            os.ftruncate(fd, 0)
            with suppress(OSError):  # the folder went away with it
                (folder / LOCK_FILE).unlink()
    finally:
        os.close(fd)


def refuse_if_being_written(run_dir: str | Path) -> None:
    """Raise ``FolderBusy`` when another process is writing ``run_dir`` (its results are
    not final, and the folder may be emptied under the reader); this process's own hold
    does not count."""
    folder = Path(run_dir)
    if os.path.realpath(folder) in _held:
        return
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _refuse(folder, fd) from None
    except OSError:
        return  # no flock here: the writer itself refuses a second writer
    finally:
        os.close(fd)
