"""Reading log files line by line with bounded memory, plain or zstandard-compressed.

Everything that touches bytes on disk is here, in ``read_lines``, so one reader can replace
it without touching the parsers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from skillbench._errors import InputError, Location
from skillbench._io import Line, open_regular

MAX_LINE_BYTES = 32 * 1024 * 1024
"""Longest line read; a longer one is skipped (its bytes are streamed past, never held)."""
MAX_DECOMPRESSED_BYTES = 4 * 1024**3
"""Most bytes one ``.zst`` file may inflate to; a real session log is far smaller."""
MAX_RATIO = 1000
"""Most decompressed bytes per compressed byte, checked past ``_RATIO_FLOOR``. JSON logs
compress 10 to 100 times; a zstd bomb (long runs of one byte) reaches thousands."""
_RATIO_FLOOR = 1024 * 1024
"""Output below this is never called a bomb, so small, very repetitive files still load."""
_CHUNK = 1024 * 1024
_ZST_CHUNK = 1024
"""Compressed bytes per step. One step's output is held at once, and one zstd block (a few
bytes) can inflate to 128 KiB, so a 1 KiB step holds at most 32 MiB whatever the data."""
_ZST_WINDOW = 1 << 27
"""Largest window (history) a frame may ask for: zstd's own default cap, 128 MiB."""


class _Broken(Exception):
    """The byte stream cannot go on (corrupt or cut compressed data)."""


def read_lines(path: Path, max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[Line]:
    """Every line of ``path`` decoded as UTF-8, transparently decompressing ``.zst``.

    A line that is not UTF-8 or longer than ``max_line_bytes`` comes back with a ``problem``
    and no text; reading goes on with the next one. A stream that breaks (a corrupt ``.zst``,
    or one cut short mid-frame) ends with one ``Line`` whose problem says so, numbered after
    the last good line. Memory stays within one line plus one decoded chunk whatever the
    file size.

    A ``.zst`` file that inflates past ``MAX_DECOMPRESSED_BYTES``, or more than
    ``MAX_RATIO`` times its compressed size, is a bomb: it ends like a broken stream.

    Raises:
        InputError: not a regular file (FIFO, device, directory) or a symlink loop; never
            blocks.
        OSError: the file cannot be read.
    """
    with open_regular(path) as raw:
        chunks = _zst_chunks(raw) if path.name.endswith(".zst") else _plain_chunks(raw)
        yield from _lines(chunks, max_line_bytes, str(path))


def _plain_chunks(raw: BinaryIO) -> Iterator[bytes]:
    while chunk := raw.read(_CHUNK):
        yield chunk


def _zst_chunks(raw: BinaryIO) -> Iterator[bytes]:
    """Decompressed bytes of every frame; ``_Broken`` on bad data, a frame cut short or a
    bomb (see ``MAX_DECOMPRESSED_BYTES`` and ``MAX_RATIO``)."""
    import zstandard

    decompressor = zstandard.ZstdDecompressor(max_window_size=_ZST_WINDOW)
    frame = decompressor.decompressobj()
    mid_frame = False
    read = inflated = 0
    while chunk := raw.read(_ZST_CHUNK):
        read += len(chunk)
        while chunk:
            try:
                out = frame.decompress(chunk)
            except zstandard.ZstdError as exc:
                raise _Broken(f"corrupt zstandard data: {exc}") from None
            mid_frame = True
            inflated += len(out)
            _check_inflation(read, inflated)
            if out:
                yield out
            if not frame.eof:
                break
            chunk, frame, mid_frame = frame.unused_data, decompressor.decompressobj(), False
    if mid_frame:
        raise _Broken("zstandard stream ends mid-frame (file cut short?)")


def _check_inflation(read: int, inflated: int) -> None:
    if inflated > MAX_DECOMPRESSED_BYTES:
        raise _Broken(
            f"decompresses past {MAX_DECOMPRESSED_BYTES:,} bytes (a zstd bomb?); not read further"
        )
    if inflated > _RATIO_FLOOR and inflated > MAX_RATIO * read:
        raise _Broken(
            f"decompresses more than {MAX_RATIO} times its size ({inflated:,} bytes from "
            f"{read:,}; a zstd bomb?); not read further"
        )


def _lines(chunks: Iterator[bytes], limit: int, name: str) -> Iterator[Line]:
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
                yield _decode(number, buffer, overflow, limit, name)
                buffer.clear()
                overflow = False
                start = end + 1
    except _Broken as exc:
        yield _unread(name, number + 1, f"{exc}; the rest of the file is unreadable")
        return
    if buffer or overflow:
        yield _decode(number + 1, buffer, overflow, limit, name)


def _unread(name: str, number: int, reason: str) -> Line:
    return Line(number, None, InputError(Location(name, number), reason))


def _decode(number: int, data: bytearray, overflow: bool, limit: int, name: str) -> Line:
    if overflow:
        return _unread(name, number, f"line longer than {limit:,} bytes")
    try:
        return Line(number, data.decode("utf-8").rstrip("\r"), None)
    except UnicodeDecodeError as exc:
        return _unread(name, number, f"not UTF-8 (byte {exc.start})")
