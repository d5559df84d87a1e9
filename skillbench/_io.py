"""One bounded, safe way to read every input file: requests, configs, skills, tool lists, logs.

Inputs are untrusted, so reading one must never block, exhaust memory or crash:

- only regular files are read; a FIFO, device, socket or directory is refused after an
  ``os.stat`` (which follows symlinks, so a ``SKILL.md`` linking to ``/dev/zero`` is refused
  too), and the file is opened with ``O_NONBLOCK`` and checked again with ``fstat`` so a file
  swapped for a FIFO in between cannot hang the open;
- a symlink loop (``ELOOP``) or any other OS error is a message, not a traceback;
- at most ``limit`` bytes are read; a larger file is refused with its size and the limit.

Encoding policy: UTF-8 is the format. A UTF-8 byte-order mark, or UTF-16 with a byte-order
mark (what Windows editors write), is accepted and decoded with a note; anything else (a Latin-1
byte, UTF-16 without a mark, a NUL byte) is refused naming the line and byte offset of the
first bad byte, so the user can find it.
"""

from __future__ import annotations

import codecs
import errno
import json
import logging
import os
import re
import stat
from collections.abc import Iterator
from typing import Any, BinaryIO, NamedTuple

from skillbench._errors import InputError, Location

MiB = 1024 * 1024
MAX_INPUT_BYTES = 256 * MiB
"""Default cap for requests, configs and logs: far above any real file, far below memory."""

MAX_JSON_DEPTH = 64
"""Nesting beyond this in a JSON document is refused; real skill and request records use < 10."""

_log = logging.getLogger("skillbench")

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class Text(NamedTuple):
    """Decoded file content and a note when it was not plain UTF-8 (BOM, UTF-16)."""

    text: str
    note: str | None


class Line(NamedTuple):
    """One line of a line-oriented file: its text, or the error that made it unreadable."""

    number: int
    text: str | None
    error: InputError | None


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symlink loop (the link points back at itself)"
    return f"cannot read: {exc.strerror or exc}"


def file_size(path: str | os.PathLike[str]) -> int:
    """Size of the regular file ``path``.

    Raises:
        InputError: not a regular file (FIFO, device, socket, directory), a symlink loop, or
            unreadable.
    """
    try:
        info = os.stat(path)
    except OSError as exc:
        raise InputError(Location(os.fspath(path)), _os_reason(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(
            Location(os.fspath(path)), f"{_kind(info.st_mode)}, not a regular file; not read"
        )
    return info.st_size


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for binary reading, streamed by the caller: only a regular file.

    Raises:
        InputError: special file (FIFO, device, socket, directory), symlink loop, or
            unreadable; the open never blocks.
    """
    return _opened(path)[0]


def _opened(path: str | os.PathLike[str]) -> tuple[BinaryIO, int]:
    """``open_regular``'s file and its size when opened."""
    name = os.fspath(path)
    file_size(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(Location(name), _os_reason(exc)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InputError(Location(name), f"{_kind(info.st_mode)}, not a regular file; not read")
    return os.fdopen(fd, "rb"), info.st_size


def head_bytes(path: str | os.PathLike[str], count: int) -> bytes:
    """The first ``count`` bytes of the regular file ``path``; nothing for anything else (a
    FIFO, a missing file), which the full read that follows reports."""
    try:
        with open_regular(path) as fh:
            return fh.read(count)
    except InputError:
        return b""


def _size_text(size: int) -> str:
    return f"{size / MiB:.1f} MiB" if size >= MiB else f"{size:,} bytes"


def read_bytes(path: str | os.PathLike[str], *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises:
        InputError: special file, symlink loop, unreadable, or larger than ``limit``.
    """
    name = os.fspath(path)
    fh, size = _opened(path)
    with fh:
        if size > limit:
            raise InputError(
                Location(name), f"file is {_size_text(size)}, over the {_size_text(limit)} limit"
            )
        data = fh.read(size + 1)  # not ``limit + 1``: that allocates the limit for each file
        if len(data) > size:
            data += fh.read(limit + 1 - len(data))
    if len(data) > limit:
        raise InputError(Location(name), f"file grew past the {_size_text(limit)} limit")
    return data


class _Origin(NamedTuple):
    """Where a chunk of bytes sits in its file: first line number and byte offset."""

    line: int = 1
    offset: int = 0


UTF8_MARK_SKIPPED = "UTF-8 byte-order mark skipped"
"""The note of a text whose UTF-8 byte-order mark was left out."""


def _bad_byte(name: str, data: bytes, at: int, what: str, origin: _Origin) -> InputError:
    line = origin.line + data.count(b"\n", 0, at)
    return InputError(
        Location(name, line),
        f"{what} at byte offset {origin.offset + at} (0x{data[at]:02x}); "
        "save the file as UTF-8 (UTF-16 needs a byte-order mark)",
    )


def decode(data: bytes, name: str, *, origin: _Origin | None = None, bom: bool = True) -> Text:
    """Decode ``data`` (from file ``name``, starting at ``origin``) under the encoding policy.

    ``bom=False`` decodes a chunk from the middle of a file, where a byte-order mark is not
    a mark but bad bytes.

    Raises:
        InputError: not UTF-8 (with line and byte offset of the first bad byte) or a NUL byte.
    """
    start = origin or _Origin()
    for mark, codec in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if bom and data.startswith(mark):
            try:
                text = data[len(mark) :].decode(codec)
            except UnicodeDecodeError as exc:
                raise _bad_byte(
                    name, data, exc.start + len(mark), "invalid UTF-16", start
                ) from None
            return Text(text, f"decoded as {codec.upper()} (byte-order mark)")
    skip = len(codecs.BOM_UTF8) if bom and data.startswith(codecs.BOM_UTF8) else 0
    note = UTF8_MARK_SKIPPED if skip else None
    nul = data.find(b"\x00", skip)
    try:
        text = data[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start + skip
        if 0 <= nul < bad:
            raise _bad_byte(name, data, nul, "NUL byte (binary file?)", start) from None
        raise _bad_byte(name, data, bad, "not UTF-8", start) from None
    if nul >= 0:
        raise _bad_byte(name, data, nul, "NUL byte (binary file?)", start)
    return Text(text, note)


def read_text(
    path: str | os.PathLike[str], *, limit: int = MAX_INPUT_BYTES, log_note: bool = True
) -> Text:
    """Read and decode ``path`` under the safety rules and the encoding policy.

    With ``log_note`` a BOM/UTF-16 note goes to the ``skillbench`` logger as a warning (so
    the CLI shows it on stderr); callers with their own diagnostics pass False.

    Raises:
        InputError: see :func:`read_bytes` and :func:`decode`.
    """
    name = os.fspath(path)
    text = decode(read_bytes(path, limit=limit), name)
    if text.note and log_note:
        _log.warning("%s: note: %s", name, text.note)
    return text


def _note(name: str, note: str, log: bool, notes: list[str] | None) -> None:
    if notes is not None:
        notes.append(note)
    elif log:
        _log.warning("%s: note: %s", name, note)


def iter_lines(
    path: str | os.PathLike[str],
    *,
    limit: int = MAX_INPUT_BYTES,
    log_note: bool = True,
    notes: list[str] | None = None,
) -> Iterator[Line]:
    """Lines of a line-oriented file (JSONL), each decoded on its own.

    A bad byte spoils only its own line (yielded with ``error``); the lines around it still
    come through. UTF-16 files (with a byte-order mark) are decoded whole. A BOM/UTF-16 note
    is logged as :func:`read_text` does, or appended to ``notes`` when given (callers that
    report it as their own diagnostic, naming the file).

    Raises:
        InputError: the file itself cannot be read (special file, loop, size).
    """
    name = os.fspath(path)
    data = read_bytes(path, limit=limit)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = decode(data, name)
        if text.note:
            _note(name, text.note, log_note, notes)
        for number, line in enumerate(text.text.split("\n"), start=1):
            yield Line(number, line, None)
        return
    offset = skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    if skip:
        _note(name, UTF8_MARK_SKIPPED, log_note, notes)
    for number, raw in enumerate(data[skip:].split(b"\n"), start=1):
        try:
            yield Line(
                number, decode(raw, name, origin=_Origin(number, offset), bom=False).text, None
            )
        except InputError as exc:
            yield Line(number, None, exc)
        offset += len(raw) + 1


_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character ``str.splitlines`` breaks a line at (and ``\\r\\n`` as one break)."""
_LINE = re.compile(f"[^{_BREAKS}]*(?:\r\n|[{_BREAKS}])?")


def split_lines(text: str, *, keepends: bool = False) -> Iterator[str]:
    """``text.splitlines(keepends)``, one line at a time: a rule that stops early, or looks at
    one line at a time, never holds a multi-megabyte body split into a list."""
    for match in _LINE.finditer(text):
        line = match.group()
        if not line:
            return
        yield line if keepends else line.rstrip(_BREAKS)


def _depth(value: Any) -> int:
    """Nesting depth of parsed JSON, computed without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def loads_json(text: str, name: str, *, line: int = 1, bounded: bool = True) -> Any:
    """Parse one JSON document (a whole file, or one JSONL line starting at ``line``).

    ``bounded=False`` skips the depth walk (a third of a log import's time) and refuses only
    what the parser itself cannot nest, for streams of large records with their own checks.

    Raises:
        InputError: invalid JSON (with its line) or nesting deeper than ``MAX_JSON_DEPTH``
            (with ``bounded=False``: deeper than the parser's recursion limit).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            Location(name, line + exc.lineno - 1), f"invalid JSON: {exc.msg}"
        ) from None
    except RecursionError:
        data, deep = None, True
    else:
        deep = bounded and _depth(data) > MAX_JSON_DEPTH
    if deep:
        raise InputError(
            Location(name, line), f"JSON nested deeper than {MAX_JSON_DEPTH} levels; not read"
        )
    return data
