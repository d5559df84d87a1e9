"""Hostile request and config files: each loads correctly or fails with file, line and reason.

No case may raise anything but a ``SkillbenchError``, hang, or lose a row silently.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from skillbench._errors import InputError, SkillbenchError
from skillbench.dataset import load_requests
from skillbench.replay import load_config

pytestmark = pytest.mark.timeout(20)

JSONL_OK = b'{"id": "r1", "text": "hello"}\n{"id": "r2", "text": "world"}\n'
CSV_OK = "id,text,expected\nr1,hello,\nr2,world,\n"


def _alias_bomb(prefix: str) -> str:
    """Nine anchored lists, each ten aliases of the previous: ``a`` stands for 11 nodes,
    ``b`` for 111, ... ``e`` (the fifth line) for 111,111, the first past 100,000."""
    lines = [f'{prefix}a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for prev, cur in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{prefix}{cur}: &{cur} [{','.join(['*' + prev] * 10)}]")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class FileCase:
    """``data`` written to ``name``; ``rows`` requests expected, or an error at ``line``.

    ``make`` replaces writing ``data`` for special files (FIFO, device link, loop).
    """

    id: str
    name: str
    data: bytes = b""
    rows: int | None = None
    line: int | None = None
    reason: str = ""
    note: str = ""
    make: Callable[[Path], None] | None = None


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _self_link(path: Path) -> None:
    path.symlink_to(path)


def _directory(path: Path) -> None:
    path.mkdir()


REQUEST_CASES = [
    FileCase("jsonl-plain", "r.jsonl", JSONL_OK, rows=2),
    FileCase(
        "jsonl-latin1-byte",
        "r.jsonl",
        b'{"id": "r1", "text": "caf\xe9"}\n',
        line=1,
        reason="byte offset 25",
    ),
    FileCase(
        "jsonl-latin1-second-line",
        "r.jsonl",
        JSONL_OK + b'{"id": "r3", "text": "\xff"}\n',
        line=3,
        reason="not UTF-8",
    ),
    FileCase(
        "jsonl-utf8-bom", "r.jsonl", b"\xef\xbb\xbf" + JSONL_OK, rows=2, note="byte-order mark"
    ),
    FileCase(
        "jsonl-utf16-le", "r.jsonl", JSONL_OK.decode().encode("utf-16"), rows=2, note="UTF-16"
    ),
    FileCase(
        "jsonl-utf16-be",
        "r.jsonl",
        b"\xfe\xff" + JSONL_OK.decode().encode("utf-16-be"),
        rows=2,
        note="UTF-16-BE",
    ),
    FileCase(
        "jsonl-utf16-no-bom",
        "r.jsonl",
        JSONL_OK.decode().encode("utf-16-le"),
        line=1,
        reason="NUL byte",
    ),
    FileCase("jsonl-crlf", "r.jsonl", JSONL_OK.replace(b"\n", b"\r\n"), rows=2),
    FileCase("jsonl-bad-json", "r.jsonl", JSONL_OK + b"{oops\n", line=3, reason="invalid JSON"),
    FileCase(
        "jsonl-deep", "r.jsonl", JSONL_OK + b"[" * 100_000 + b"\n", line=3, reason="nested deeper"
    ),
    FileCase("jsonl-empty", "r.jsonl", b"\n\n", reason="no requests"),
    FileCase("jsonl-fifo", "r.jsonl", make=_fifo, reason="FIFO"),
    FileCase("jsonl-dev-zero", "r.jsonl", make=_dev_zero, reason="character device"),
    FileCase("jsonl-self-link", "r.jsonl", make=_self_link, reason="symlink loop"),
    FileCase("jsonl-directory", "r.jsonl", make=_directory, reason="directory"),
    FileCase("csv-plain", "r.csv", CSV_OK.encode(), rows=2),
    FileCase(
        "csv-bom-header-keeps-id",
        "r.csv",
        ("\ufeff" + CSV_OK).encode(),
        rows=2,
        note="byte-order mark",
    ),
    FileCase("csv-utf16", "r.csv", CSV_OK.encode("utf-16"), rows=2, note="UTF-16"),
    FileCase(
        "csv-latin1",
        "r.csv",
        "id,text\nr1,caf\xe9\n".encode("latin-1"),
        line=2,
        reason="byte offset 14",
    ),
    FileCase(
        "csv-unclosed-quote",
        "r.csv",
        b'id,text\nr1,a\nr2,"open\nr3,c\nr4,d\nr5,e\n',
        line=3,
        reason="unclosed quote",
    ),
    FileCase("csv-error-on-line-2", "r.csv", b"id,text\nr1,\nr2,b\n", line=2, reason="'text'"),
    FileCase(
        "csv-error-after-multiline-cell",
        "r.csv",
        b'id,text\nr1,"two\nlines"\nr2,\n',
        line=4,
        reason="'text'",
    ),
    FileCase(
        "csv-error-after-blank-line", "r.csv", b"id,text\n\nr1,a\n\nr2,\n", line=5, reason="'text'"
    ),
    FileCase("csv-extra-cells", "r.csv", b"id,text\nr1,a,b\n", line=2, reason="more cell"),
    FileCase("csv-repeated-header", "r.csv", b"id,text,id\nr1,a,b\n", line=1, reason="repeats"),
    FileCase("csv-stray-quote", "r.csv", b'id,text\nr1,"a"b\n', line=2, reason="malformed CSV"),
    FileCase("csv-crlf", "r.csv", CSV_OK.replace("\n", "\r\n").encode(), rows=2),
    FileCase("yaml-plain", "r.yaml", b"- {id: r1, text: hi}\n- {id: r2, text: yo}\n", rows=2),
    FileCase(
        "yaml-alias-bomb-in-extra",
        "r.yaml",
        ("- id: r1\n  text: hi\n  topic:\n" + _alias_bomb("    ")).encode(),
        line=3 + 5,
        reason="alias bomb",
    ),
    FileCase(
        "yaml-deep-nesting",
        "r.yaml",
        b"- {id: r1, text: " + b"[" * 5000 + b"\n",
        reason="invalid YAML",
    ),
    FileCase(
        "yaml-recursive-alias",
        "r.yaml",
        b"- &a {id: r1, text: hi, topic: *a}\n",
        reason="recursive",
    ),
    FileCase(
        "yaml-python-tag",
        "r.yaml",
        b"- !!python/object/apply:os.system [ls]\n",
        line=1,
        reason="invalid YAML",
    ),
    FileCase(
        "yaml-utf16", "r.yaml", "- {id: r1, text: hi}\n".encode("utf-16"), rows=1, note="UTF-16"
    ),
    FileCase(
        "yaml-latin1",
        "r.yaml",
        "- {id: r1, text: hi}\n- {id: r2, text: caf\xe9}\n".encode("latin-1"),
        line=2,
        reason="not UTF-8",
    ),
    FileCase("yaml-not-a-list", "r.yaml", b"id: r1\n", reason="expected a list"),
]

_BASE_CONFIG = (
    "name: x\n"
    "catalogs:\n  c: [{path: skills, source: project}]\n"
    "requests: req.jsonl\n"
    "selectors: [{type: oracle}]\n"
)
"""A valid config (lines 1-5); each semantic case appends one line 6 or edits one line."""


def _in_project(text: str) -> Callable[[Path], None]:
    """Write ``text`` as the config beside a one-skill catalog and a one-request file."""

    def make(path: Path) -> None:
        skill = path.parent / "skills" / "a"
        skill.mkdir(parents=True, exist_ok=True)
        (skill / "SKILL.md").write_text("---\nname: a\ndescription: A skill.\n---\nbody\n")
        (path.parent / "req.jsonl").write_text('{"id": "r1", "text": "hi", "expected": ["a"]}\n')
        path.write_text(text, encoding="utf-8")

    return make


def _semantic(case_id: str, extra: str, line: int, reason: str) -> FileCase:
    return FileCase(
        case_id, "c.yaml", make=_in_project(_BASE_CONFIG + extra), line=line, reason=reason
    )


def _edited(case_id: str, old: str, new: str, line: int, reason: str) -> FileCase:
    text = _BASE_CONFIG.replace(old, new)
    return FileCase(case_id, "c.yaml", make=_in_project(text), line=line, reason=reason)


CONFIG_CASES = [
    FileCase(
        "config-alias-bomb",
        "c.yaml",
        ("name: x\nextra:\n" + _alias_bomb("  ")).encode(),
        line=2 + 5,
        reason="alias bomb",
    ),
    FileCase(
        "config-recursive-alias", "c.yaml", b"name: x\nseed: &a [*a]\n", line=2, reason="recursive"
    ),
    FileCase("config-deep-nesting", "c.yaml", b"name: " + b"[" * 5000, reason="invalid YAML"),
    FileCase(
        "config-latin1",
        "c.yaml",
        "name: caf\xe9\n".encode("latin-1"),
        line=1,
        reason="byte offset 9",
    ),
    FileCase(
        "config-utf16-no-bom", "c.yaml", "name: x\n".encode("utf-16-le"), line=1, reason="NUL byte"
    ),
    FileCase("config-fifo", "c.yaml", make=_fifo, reason="FIFO"),
    FileCase("config-dev-zero", "c.yaml", make=_dev_zero, reason="character device"),
    FileCase("config-self-link", "c.yaml", make=_self_link, reason="symlink loop"),
    FileCase(
        "config-python-tag",
        "c.yaml",
        b"name: !!python/name:os.system x\n",
        line=1,
        reason="invalid YAML",
    ),
    _semantic("config-typo-key", "budgest: [1000]\n", 6, "did you mean 'budgets'"),
    _semantic("config-negative-budget", "budgets: [-5]\n", 6, "at least 1 character"),
    _semantic("config-budget-word", "budgets: [lots]\n", 6, "budgets[0]"),
    _semantic("config-budget-bool", "budgets: [true]\n", 6, "budgets[0]"),
    _semantic("config-budget-overflow", "budgets: [1e400]\n", 6, "budgets[0]"),
    _semantic("config-half-life-words", "half_lives: [7 weeks]\n", 6, "'7 weeks'"),
    _semantic("config-profile-typo", "profiles: [claude-cod]\n", 6, "did you mean 'claude-code'"),
    _semantic("config-ordering-typo", "orderings: [usag]\n", 6, "did you mean 'usage'"),
    _semantic("config-rotate-word", "orderings: ['rotate:x']\n", 6, "rotate:3"),
    _semantic("config-repeats-zero", "repeats: 0\n", 6, "repeats"),
    _semantic("config-seed-word", "seed: abc\n", 6, "seed"),
    _semantic("config-limit-negative", "limit: -1\n", 6, "limit"),
    _semantic("config-duplicate-key", "seed: 1\nseed: 2\n", 7, "duplicate key 'seed'"),
    _semantic("config-usage-record", "usage: {record: sometimes}\n", 6, "usage.record"),
    _semantic("config-cwd-missing", "cwd: nowhere\n", 6, "'nowhere' not found"),
    _semantic("config-profile-option", "profiles: [{name: codebot, colour: red}]\n", 6, "'colour'"),
    _edited("config-name-traversal", "name: x", "name: ../../etc", 1, "name"),
    _edited("config-name-escape", "name: x", 'name: "x\\e[31m"', 1, "name"),
    _edited("config-name-null", "name: x", "name: null", 1, "name"),
    _edited("config-requests-missing", "req.jsonl", "nope.jsonl", 4, "'nope.jsonl' not found"),
    _edited("config-source-missing", "path: skills", "path: nope", 3, "'nope' not found"),
    _edited("config-source-kind", "source: project", "source: projekt", 3, "source"),
    _edited(
        "config-selector-typo", "{type: oracle}", "{type: embeding}", 5, "did you mean 'embedding'"
    ),
    _edited("config-selectors-scalar", "[{type: oracle}]", "embedding", 5, "selectors"),
    _edited(
        "config-catalogs-empty", "\n  c: [{path: skills, source: project}]", " {}", 2, "catalogs"
    ),
    FileCase("config-top-level-list", "c.yaml", b"- name: x\n", line=1, reason="YAML mapping"),
    FileCase("config-empty", "c.yaml", b"", line=1, reason="YAML mapping"),
    FileCase(
        "config-tab-indent",
        "c.yaml",
        b"name: x\ncatalogs:\n\tc: []\n",
        line=3,
        reason="invalid YAML",
    ),
]


def _write(tmp_path: Path, case: FileCase) -> Path:
    path = tmp_path / case.name
    if case.make is not None:
        case.make(path)
    else:
        path.write_bytes(case.data)
    return path


def _check_error(exc: SkillbenchError, path: Path, case: FileCase) -> None:
    message = str(exc)
    assert str(path) in message and case.reason in message, message
    if case.line is not None:
        assert f"{path}:{case.line}:" in message, message


def test_corpus_size() -> None:
    assert len(REQUEST_CASES) >= 30 and len(CONFIG_CASES) >= 30


@pytest.mark.parametrize("case", REQUEST_CASES, ids=[c.id for c in REQUEST_CASES])
def test_request_file(tmp_path: Path, case: FileCase, caplog: pytest.LogCaptureFixture) -> None:
    path = _write(tmp_path, case)
    with caplog.at_level(logging.WARNING, logger="skillbench"):
        if case.rows is None:
            with pytest.raises(SkillbenchError) as info:
                load_requests(path)
            _check_error(info.value, path, case)
            return
        requests = load_requests(path)
    assert [r.id for r in requests] == [f"r{i}" for i in range(1, case.rows + 1)]
    assert all(r.text.strip() for r in requests)
    notes = " ".join(record.getMessage() for record in caplog.records)
    assert case.note in notes and (case.note or not notes)


@pytest.mark.parametrize("case", CONFIG_CASES, ids=[c.id for c in CONFIG_CASES])
def test_config_file(tmp_path: Path, case: FileCase) -> None:
    path = _write(tmp_path, case)
    with pytest.raises(InputError) as info:
        load_config(path)
    _check_error(info.value, path, case)
