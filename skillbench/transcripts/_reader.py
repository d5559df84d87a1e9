"""Reading log files line by line with bounded memory, plain or zstandard-compressed.

Everything that touches bytes on disk is here, in ``read_lines``, so one reader can replace
it without touching the parsers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

MAX_LINE_BYTES = 32 * 1024 * 1024
"""Longest line read; a longer one is skipped (its bytes are streamed past, never held)."""
_CHUNK = 1024 * 1024


class Line(NamedTuple):
    """One line of a file, or why it could not be read (``text`` None)."""

    number: int
    text: str | None
    problem: str | None = None


def read_lines(path: Path, max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[Line]:
    """Every line of ``path`` decoded as UTF-8, transparently decompressing ``.zst``.

    A line that is not UTF-8 or longer than ``max_line_bytes`` comes back with a ``problem``
    and no text; reading goes on with the next one. A stream that breaks (a corrupt or cut
    ``.zst``) ends with one ``Line`` whose problem says so, numbered after the last good
    line. Memory stays within one line plus one read chunk whatever the file size.

    Raises:
        OSError: the file cannot be opened.
    """
    with path.open("rb") as raw:
        stream: BinaryIO = raw
        if path.name.endswith(".zst"):
            import zstandard

            stream = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)  # type: ignore[assignment]
        yield from _lines(stream, max_line_bytes)


def _lines(stream: BinaryIO, limit: int) -> Iterator[Line]:
    number = 0
    buffer = bytearray()
    overflow = False
    while True:
        try:
            chunk = stream.read(_CHUNK)
        except Exception as exc:  # zstandard's ZstdError and OSError alike end the file
            yield Line(number + 1, None, f"stream unreadable from here on: {exc}")
            return
        if not chunk:
            break
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if not overflow:
                buffer += piece
                overflow = len(buffer) > limit
                if overflow:
                    buffer.clear()
            if end < 0:
                break
            number += 1
            yield _decode(number, buffer, overflow, limit)
            buffer.clear()
            overflow = False
            start = end + 1
    if buffer or overflow:
        yield _decode(number + 1, buffer, overflow, limit)


def _decode(number: int, data: bytearray, overflow: bool, limit: int) -> Line:
    if overflow:
        return Line(number, None, f"line longer than {limit:,} bytes")
    try:
        return Line(number, data.decode("utf-8").rstrip("\r"))
    except UnicodeDecodeError as exc:
        return Line(number, None, f"not UTF-8 (byte {exc.start})")
