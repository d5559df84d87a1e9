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
_ZST_CHUNK = 16 * 1024
"""Compressed bytes per step: small, since one step's output is held at once and JSON logs
inflate ten to a hundred times (a 16 KiB step: about 1.6 MB at most for such logs)."""


class Line(NamedTuple):
    """One line of a file, or why it could not be read (``text`` None)."""

    number: int
    text: str | None
    problem: str | None = None


class _Broken(Exception):
    """The byte stream cannot go on (corrupt or cut compressed data)."""


def read_lines(path: Path, max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[Line]:
    """Every line of ``path`` decoded as UTF-8, transparently decompressing ``.zst``.

    A line that is not UTF-8 or longer than ``max_line_bytes`` comes back with a ``problem``
    and no text; reading goes on with the next one. A stream that breaks (a corrupt ``.zst``,
    or one cut short mid-frame) ends with one ``Line`` whose problem says so, numbered after
    the last good line. Memory stays within one line plus one decoded chunk whatever the
    file size.

    Raises:
        OSError: the file cannot be opened or read.
    """
    with path.open("rb") as raw:
        chunks = _zst_chunks(raw) if path.name.endswith(".zst") else _plain_chunks(raw)
        yield from _lines(chunks, max_line_bytes)


def _plain_chunks(raw: BinaryIO) -> Iterator[bytes]:
    while chunk := raw.read(_CHUNK):
        yield chunk


def _zst_chunks(raw: BinaryIO) -> Iterator[bytes]:
    """Decompressed bytes of every frame; ``_Broken`` on bad data or a frame cut short."""
    import zstandard

    decompressor = zstandard.ZstdDecompressor()
    frame = decompressor.decompressobj()
    mid_frame = False
    while chunk := raw.read(_ZST_CHUNK):
        while chunk:
            try:
                out = frame.decompress(chunk)
            except zstandard.ZstdError as exc:
                raise _Broken(f"corrupt zstandard data: {exc}") from None
            mid_frame = True
            if out:
                yield out
            if not frame.eof:
                break
            chunk, frame, mid_frame = frame.unused_data, decompressor.decompressobj(), False
    if mid_frame:
        raise _Broken("zstandard stream ends mid-frame (file cut short?)")


def _lines(chunks: Iterator[bytes], limit: int) -> Iterator[Line]:
    number = 0
    buffer = bytearray()
    overflow = False
    try:
        for chunk in chunks:
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
    except _Broken as exc:
        yield Line(number + 1, None, f"{exc}; the rest of the file is unreadable")
        return
    if buffer or overflow:
        yield _decode(number + 1, buffer, overflow, limit)


def _decode(number: int, data: bytearray, overflow: bool, limit: int) -> Line:
    if overflow:
        return Line(number, None, f"line longer than {limit:,} bytes")
    try:
        return Line(number, data.decode("utf-8").rstrip("\r"))
    except UnicodeDecodeError as exc:
        return Line(number, None, f"not UTF-8 (byte {exc.start})")
