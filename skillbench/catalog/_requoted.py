"""A front matter reader whose scalars stay as written and whose failing values are quoted.

Some agents deserialize front matter into a record of text fields: a scalar is the text it
is written as (``12.50``, ``yes``), null is no value, and a list or mapping in a text field
fails like broken YAML does. When either fails, each top-level ``key: value`` line whose
value cannot stand as YAML is quoted and the block is read once more.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from skillbench._errors import InputError
from skillbench._yaml import DuplicateKey, parse_yaml, well_formed
from skillbench.catalog._fields import fold_key
from skillbench.catalog._frontmatter import FRONT_MATTER_READERS, Markdown, top_key_lines
from skillbench.catalog._types import Diagnostic

TEXT_KEYS = ("name", "description")
"""The text fields of the record; their keys are matched as written (``Description`` is
another key)."""

RECORD_KEY = "metadata"
"""A field holding a mapping, whose ``short-description`` is text."""

_KEY_VALUE = re.compile(r"([A-Za-z0-9_-]+):[ \t]+(.*)")
_NEVER_QUOTED = "\"'|>"
"""First characters of a value that is left as it is: quoted or a block scalar."""
_FLOW_OR_RESERVED = "[{@`"
"""First characters of a value quoted when, on its own, it is not YAML."""


class _Block(NamedTuple):
    """The front matter's lines (line ends and a ``\\r`` before them left out) and where
    the body starts, in characters."""

    lines: list[str]
    body_start: int


class _Reading(NamedTuple):
    """The block read as the record: its mapping, or why not and on which line."""

    meta: Mapping[Any, Any] | None
    reason: str | None = None
    line: int | None = None


def _block(text: str) -> _Block | str | None:
    """From a first line that is ``---`` once trimmed up to the next such line; None when
    the file does not open with one, why not when it is never closed or empty."""
    lines = text.split("\n")
    if lines[0].removesuffix("\r").strip() != "---":
        return None
    start = len(lines[0]) + 1
    head: list[str] = []
    for line in lines[1:]:
        start += len(line) + 1
        if line.removesuffix("\r").strip() == "---":
            return _Block(head, min(start, len(text))) if head else "frontmatter is empty"
        head.append(line.removesuffix("\r"))
    return "frontmatter opened with '---' is never closed"


def _quoted(value: str) -> bool:
    """Whether a top-level value (its comment cut off) is read as quoted text: one holding
    ``: `` or starting a flow collection or a reserved character and not YAML on its own;
    never a quoted or block scalar."""
    if not value or value[0] in _NEVER_QUOTED:
        return False
    if ": " in value:
        return True
    return value[0] in _FLOW_OR_RESERVED and not well_formed(value)


def _uncommented(value: str) -> str:
    """``value`` up to its `` #`` comment, without the blanks that end it (found without a
    regular expression, which would take quadratic time on a long run of blanks)."""
    cuts = [at for at in (value.find(" #"), value.find("\t#")) if at >= 0]
    return value[: min(cuts, default=len(value))].rstrip(" \t")


def requote(lines: list[str]) -> list[str]:
    """``lines`` with each top-level value ``_quoted`` names written as a double-quoted
    string (its comment left out)."""
    out: list[str] = []
    for line in lines:
        match = _KEY_VALUE.fullmatch(line)
        value = _uncommented(match.group(2)) if match else ""
        if match is None or not _quoted(value):
            out.append(line)
            continue
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'{match.group(1)}: "{escaped}"')
    return out


def _problem(meta: Any, repeated: list[DuplicateKey]) -> str | None:
    """Why ``meta`` does not fit the record, or None when it does."""
    if not isinstance(meta, Mapping):
        return f"frontmatter is a {type(meta).__name__}, not a mapping"
    for key in (*TEXT_KEYS, RECORD_KEY):
        if any(d.key == key for d in repeated):
            return f"duplicate field `{key}`"
    for key in TEXT_KEYS:
        if meta.get(key) is not None and not isinstance(meta[key], str):
            return f"`{key}` is a {type(meta[key]).__name__}, not text"
    record = meta.get(RECORD_KEY)
    if record is not None and not isinstance(record, Mapping):
        return f"`{RECORD_KEY}` is a {type(record).__name__}, not a mapping"
    short = (record or {}).get("short-description")
    if short is not None and not isinstance(short, str):
        return f"`{RECORD_KEY}.short-description` is a {type(short).__name__}, not text"
    return None


def _read(lines: list[str], path: str) -> _Reading:
    repeated: list[DuplicateKey] = []
    try:
        meta = parse_yaml("\n".join(lines), path, first_line=2, duplicates=repeated, scalars="text")
    except InputError as exc:
        reason = exc.reason.replace("invalid YAML", "invalid YAML frontmatter", 1)
        return _Reading(None, reason, exc.location.line)
    problem = _problem(meta, repeated)
    return _Reading(None, problem, 2) if problem else _Reading(meta)


@FRONT_MATTER_READERS.register("yaml-text-requoted")
def _text_requoted(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """Front matter between two lines that are ``---`` once trimmed, read as text fields
    (see the module docstring), else read again with failing values quoted (a warning
    says so); a file whose block is empty, never closed or fits neither way is not
    loaded."""
    block = _block(text)
    if block is None:
        return Markdown(None, text, 0, 1, {})
    if isinstance(block, str):
        diagnostics.append(Diagnostic(path, 1, block, "error"))
        return None
    lines, start = block
    first = _read(lines, path)
    meta = first.meta
    if meta is None:
        meta = _read(requote(lines), path).meta
        if meta is None:
            diagnostics.append(Diagnostic(path, first.line, f"{first.reason}; skipped", "error"))
            return None
        diagnostics.append(
            Diagnostic(path, first.line, f"{first.reason}; read with its values quoted", "warning")
        )
    fields: dict[Any, Any] = {}
    for key, value in meta.items():
        if str(key) not in TEXT_KEYS and fold_key(str(key)) in TEXT_KEYS:
            diagnostics.append(
                Diagnostic(path, None, f"key {key!r} ignored: keys are case-sensitive", "warning")
            )
        else:
            fields[key] = value
    key_lines = top_key_lines(lines)
    return Markdown(fields, text, start, len(lines) + 3, key_lines)
