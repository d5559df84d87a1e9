"""The bounded line reader: plain and zstandard files, long lines, bad bytes."""

from __future__ import annotations

from pathlib import Path

import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from skillbench.transcripts import read_lines

lines_strategy = st.lists(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=40),
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(lines=lines_strategy, compressed=st.booleans())
def test_lines_round_trip(tmp_path_factory, lines: list[str], compressed: bool) -> None:
    data = "".join(f"{line}\n" for line in lines).encode("utf-8")
    path = tmp_path_factory.mktemp("r") / ("log.jsonl.zst" if compressed else "log.jsonl")
    path.write_bytes(zstandard.ZstdCompressor().compress(data) if compressed else data)
    got = list(read_lines(path))
    assert [(line.number, line.text) for line in got] == list(enumerate(lines, start=1))


def test_long_lines_and_bad_bytes_are_skipped_and_reading_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    long = b"x" * 3_000_000  # crosses the reader's 1 MiB read steps
    path.write_bytes(b"first\n" + long + b"\n\xff\xfe bad\nlast")
    got = list(read_lines(path, max_line_bytes=1_000_000))
    assert [(line.number, line.text) for line in got] == [
        (1, "first"),
        (2, None),
        (3, None),
        (4, "last"),  # no newline at the end: still a line
    ]
    assert got[1].error.reason == "line longer than 1,000,000 bytes"
    assert got[2].error.reason == "not UTF-8 (byte 0)"


def test_multi_frame_zst(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl.zst"
    c = zstandard.ZstdCompressor()
    path.write_bytes(c.compress(b"one\ntw") + c.compress(b"o\nthree\n"))
    assert [line.text for line in read_lines(path)] == ["one", "two", "three"]
