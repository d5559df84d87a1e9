"""The shared safe-input layer: bounded reads, the encoding policy, bounded YAML, the sanitiser."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from skillbench._errors import InputError
from skillbench._io import MAX_JSON_DEPTH, iter_lines, loads_json, read_bytes, read_text
from skillbench._sanitize import JOINERS, clean_line, name_problem, printable
from skillbench._yaml import MAX_DEPTH, parse_yaml
from skillbench.catalog import matches

pytestmark = pytest.mark.timeout(20)


def test_size_cap_names_size_and_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 2048)
    with pytest.raises(InputError, match=r"2,048 bytes, over the 1,024 bytes limit"):
        read_bytes(path, limit=1024)
    assert read_bytes(path, limit=2048) == b"x" * 2048


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(InputError, match="FIFO"):
        read_text(tmp_path / "pipe")


@pytest.mark.parametrize(
    ("data", "text", "note"),
    [
        (b"plain\n", "plain\n", None),
        (b"\xef\xbb\xbfbom\n", "bom\n", "UTF-8 byte-order mark skipped"),
        (b"\xff\xfew\x00i\x00d\x00e\x00", "wide", "decoded as UTF-16-LE (byte-order mark)"),
        (b"\xfe\xff\x00w\x00i\x00d\x00e", "wide", "decoded as UTF-16-BE (byte-order mark)"),
    ],
)
def test_accepted_encodings(tmp_path: Path, data: bytes, text: str, note: str | None) -> None:
    (tmp_path / "f").write_bytes(data)
    assert tuple(read_text(tmp_path / "f", log_note=False)) == (text, note)


def test_first_bad_byte_is_located(tmp_path: Path) -> None:
    # "ok\n" is line 1 (bytes 0-2); on line 2 "ab" is bytes 3-4, so the bad byte is at 5.
    (tmp_path / "f").write_bytes(b"ok\nab\xe9cd\n")
    with pytest.raises(InputError) as info:
        read_text(tmp_path / "f")
    assert info.value.location.line == 2 and "byte offset 5 (0xe9)" in info.value.reason


def test_iter_lines_keeps_lines_around_a_bad_one(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"one\n\xfftwo\nthree")
    lines = list(iter_lines(tmp_path / "f"))
    assert [(n, t) for n, t, _ in lines] == [(1, "one"), (2, None), (3, "three")]
    error = lines[1].error
    assert error is not None and "byte offset 4" in error.reason


def test_json_depth_limit() -> None:
    assert loads_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, "f") is not None
    deeper = MAX_JSON_DEPTH + 1
    with pytest.raises(InputError, match="nested deeper"):
        loads_json("[" * deeper + "]" * deeper, "f")
    with pytest.raises(InputError, match="nested deeper"):
        loads_json("[" * 1_000_000, "f")


def test_yaml_alias_bomb_fails_fast() -> None:
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for prev, cur in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{cur}: &{cur} [{','.join(['*' + prev] * 10)}]")
    start = time.perf_counter()
    with pytest.raises(InputError, match="alias bomb") as info:
        parse_yaml("\n".join(lines), "bomb.yaml")
    assert time.perf_counter() - start < 1.0
    assert info.value.location.line == 5  # ``e`` stands for 111,111 nodes: the first past 100k


def test_yaml_limits_leave_ordinary_aliases_alone() -> None:
    data = parse_yaml("base: &b {k: 1}\nuse: *b\nmerged: {<<: *b, j: 2}\n", "f", lines=True)
    assert data == {"base": {"k": 1}, "use": {"k": 1}, "merged": {"k": 1, "j": 2}}
    assert data.lines == {"base": 1, "use": 2, "merged": 3}
    plain = parse_yaml("a: 1\n\nb:\n  c: [x, y]\n", "f", lines=True)  # no alias: libyaml composes
    assert plain == {"a": 1, "b": {"c": ["x", "y"]}}
    assert (plain.lines, plain["b"].lines) == ({"a": 1, "b": 3}, {"c": 4})


def test_yaml_depth_limit_and_line_offset() -> None:
    nested = "".join(f"{'  ' * i}k{i}:\n" for i in range(MAX_DEPTH + 1)) + "  " * 70 + "v: 1\n"
    with pytest.raises(InputError, match="deeper than"):
        parse_yaml(nested, "f")
    with pytest.raises(InputError) as info:
        parse_yaml("a: 1\nb: [\n", "f", first_line=2)
    assert info.value.location.line is not None and info.value.location.line >= 3


def _nested(depth: int, style: str) -> str:
    """``depth`` collections around a scalar, written in ``style`` (``pairs``: each a flow
    sequence holding a single-pair mapping, two collections a level)."""
    if style == "flow":
        return "[" * depth + "x" + "]" * depth
    if style == "compact":
        return "- " * depth + "x\n"
    if style == "json":
        return '{"a":' * depth + "1" + "}" * depth
    if style == "pairs":
        return '["a":' * depth + "1" + "]" * depth
    lines = [f"{'  ' * i}k{i}:" for i in range(depth)]
    return ("\x85" if style == "nel" else "\n").join(lines) + " x\n"  # NEL: a YAML 1.1 break


@given(
    st.integers(1, MAX_DEPTH + 30),
    st.sampled_from(["flow", "compact", "json", "pairs", "block", "nel"]),
)
def test_yaml_depth_limit_holds_in_every_style(depth: int, style: str) -> None:
    """A scalar inside N collections is N + 1 levels: past ``MAX_DEPTH`` it is refused however
    compactly it is written (the fast path must not let it through), and within it the data
    is what PyYAML's own safe loader reads."""
    text = _nested(depth, style)
    collections = 2 * depth if style == "pairs" else depth
    if collections + 1 > MAX_DEPTH:
        with pytest.raises(InputError, match="deeper than"):
            parse_yaml(text, "f")
    else:
        assert parse_yaml(text, "f") == yaml.safe_load(text)


def test_pathological_globs_finish_quickly() -> None:
    start = time.perf_counter()
    assert not matches(["*a" * 40 + "b"], "a" * 500)
    assert not matches(["**/" * 80 + "x"], "/".join(["d"] * 100))
    assert matches(["**/" * 80 + "x"], "/".join(["d"] * 100) + "/x")
    assert time.perf_counter() - start < 0.5


@given(st.text())
def test_clean_line_output_is_one_printable_line(text: str) -> None:
    cleaned = clean_line(text).text
    visible = "".join(c for c in cleaned if c not in JOINERS)
    assert visible.isprintable() and cleaned == cleaned.strip() and "  " not in cleaned


@given(st.text())
def test_printable_is_printable_and_lossless_for_printable_text(text: str) -> None:
    shown = printable(text)
    assert shown.isprintable()
    assert (shown == text) == text.isprintable()


@given(st.text())
def test_accepted_skill_names_are_safe(name: str) -> None:
    if name_problem(name, "agent-skills") is None:
        assert name.isascii() and name.replace("-", "").isalnum() and len(name) <= 64
        assert name == name.lower() and not name.startswith("-")
    if name_problem(name, "identifier") is None:
        assert name.isprintable() and "/" not in name and ".." not in name
