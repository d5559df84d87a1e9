"""Reading skill files: bounded decoding, safe YAML frontmatter with file lines, and the body."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from skillbench._errors import InputError
from skillbench._io import read_text as read_input
from skillbench._io import split_lines
from skillbench._registry import Registry
from skillbench._yaml import DuplicateKey, parse_yaml
from skillbench.catalog._fields import first_paragraph, fold_key, read_fields
from skillbench.catalog._skill import (
    INLINE_BODY_CHARS,
    MAX_SKILL_BYTES,
    BodyFile,
    body_digest,
)
from skillbench.catalog._types import Diagnostic

_TOP_KEY = re.compile(r"""^(["']?)([^\s"'#:][^:]*?)\1\s*:(?:\s|$)""")
_PLAIN_VALUE = re.compile(r"^([A-Za-z0-9_-]+):[ \t]+([^\s\"'|>\[{&*!%@`#].*?)[ \t]*$")
"""A top-level ``key: value`` line whose value is a plain scalar (what a lenient reader
quotes when strict YAML rejects the block, e.g. for a ``: `` inside a description)."""


def _quoted_values(source: str) -> str:
    """``source`` with every plain top-level value double-quoted, as Claude Code and Codex
    read a frontmatter block that strict YAML rejects."""

    def quote(line: str) -> str:
        match = _PLAIN_VALUE.match(line)
        if match is None:
            return line
        value = match.group(2).replace("\\", "\\\\").replace('"', '\\"')
        return f'{match.group(1)}: "{value}"'

    return "\n".join(quote(line) for line in source.split("\n"))


def read_text(
    path: Path, diagnostics: list[Diagnostic], *, limit: int = MAX_SKILL_BYTES
) -> str | None:
    """Text of the skill file ``path``, or None with an error diagnostic saying why not.

    Reads through ``skillbench._io``: regular files only, at most ``limit`` bytes, UTF-8
    (a byte-order mark or UTF-16 with one is decoded, with a warning).
    """
    try:
        text, note = read_input(path, limit=limit, log_note=False)
    except InputError as exc:
        where = exc.location
        diagnostics.append(Diagnostic(where.file, where.line, f"{exc.reason}; skipped", "error"))
        return None
    if note:
        diagnostics.append(Diagnostic(str(path), None, note, "warning"))
    if not text.strip():
        diagnostics.append(Diagnostic(str(path), None, "empty file skipped", "error"))
        return None
    return text


def line_finder(line_by_key: dict[str, int]) -> Callable[[str], int | None]:
    return lambda key: line_by_key.get(fold_key(key))


def kept_body(path: str, text: str, start: int = 0, line: int = 1) -> str | BodyFile:
    """The body of ``text`` from character ``start`` (file line ``line``) as a skill keeps it:
    the text itself up to ``INLINE_BODY_CHARS``, else where it lies in ``path``."""
    chars = len(text) - start
    if chars <= INLINE_BODY_CHARS:
        return text[start:]
    body = text[start:]
    return BodyFile(path, start, chars, line, body_digest(body), first_paragraph(body))


@dataclass(frozen=True, slots=True)
class Markdown:
    """A parsed skill Markdown file.

    Attributes:
        meta: frontmatter mapping, ``None`` when the file has no frontmatter.
        text: the whole file.
        body_start: where the body (the text after the frontmatter; the whole file without
            one) starts, in characters.
        body_line: the file's 1-based line where the body starts.
        key_lines: folded top-level key → 1-based file line.
    """

    meta: dict[Any, Any] | None
    text: str
    body_start: int
    body_line: int
    key_lines: dict[str, int]

    @property
    def body(self) -> str:
        return self.text[self.body_start :]

    def kept_body(self, path: str) -> str | BodyFile:
        return kept_body(path, self.text, self.body_start, self.body_line)


def parse_markdown(
    path: str,
    text: str,
    diagnostics: list[Diagnostic],
    *,
    lenient: bool = False,
    final_break: bool = True,
) -> Markdown | None:
    """Split frontmatter from body; None (with an error diagnostic) when the YAML is unusable.

    Only the frontmatter's lines are split out; the body stays one string.
    ``lenient``: YAML that fails to parse is read again with its plain ``key: value`` lines
    quoted (a warning says so), as the agents that list such a skill do.
    ``final_break``: the YAML is parsed with the line break before the closing ``---`` (False:
    without it, so a block scalar ending the front matter has no final line break).
    """
    lines = split_lines(text, keepends=True)
    first = next(lines, "")
    if first.strip() != "---":
        return Markdown(None, text, 0, 1, {})
    head: list[str] = []
    start = len(first)
    for line in lines:
        start += len(line)
        if line.rstrip() in ("---", "..."):
            break
        head.append(line)
    else:
        diagnostics.append(
            Diagnostic(path, 1, "frontmatter opened with '---' is never closed", "error")
        )
        return None
    source = "".join(head)
    if not final_break:
        source = source.removesuffix("\n").removesuffix("\r")
    repeated: list[DuplicateKey] = []
    try:
        meta = parse_yaml(source, path, first_line=2, duplicates=repeated)
    except InputError as exc:
        reason = exc.reason.replace("invalid YAML", "invalid YAML frontmatter", 1)
        meta = _reread(source, path, repeated) if lenient else None
        if meta is None:
            diagnostics.append(Diagnostic(path, exc.location.line, reason, "error"))
            return None
        diagnostics.append(
            Diagnostic(path, exc.location.line, f"{reason}; read with its values quoted", "warning")
        )
    diagnostics.extend(
        Diagnostic(
            path,
            d.line,
            f"frontmatter key {d.key!r} repeated (first on line {d.first_line}): "
            "this later value is used",
            "warning",
        )
        for d in repeated
    )
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        diagnostics.append(
            Diagnostic(path, 2, f"frontmatter is a {type(meta).__name__}, not a mapping", "error")
        )
        return None
    key_lines: dict[str, int] = {}
    for number, line in enumerate(head, start=2):
        match = _TOP_KEY.match(line)
        if match:
            key_lines.setdefault(fold_key(match.group(2)), number)
    return Markdown(meta, text, start, len(head) + 3, key_lines)


def _reread(source: str, path: str, repeated: list[DuplicateKey]) -> Any:
    try:
        return parse_yaml(_quoted_values(source), path, first_line=2, duplicates=repeated)
    except InputError:
        return None


class FrontMatterReader(Protocol):
    """How one agent reads a skill file: its front matter as the agent's parser returns it,
    and the body. None (with an error diagnostic saying why) when the agent does not load
    the file. Values it gives are what the agent lists (after skillbench sanitises a copy)."""

    def __call__(self, path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None: ...


FRONT_MATTER_READERS: Registry[FrontMatterReader] = Registry("front matter reader")
"""Reader name → reader; an agent's loading rules name theirs (``Precedence.front_matter``)."""


@FRONT_MATTER_READERS.register("yaml")
def _strict(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """Safe YAML: front matter it rejects keeps the file from loading."""
    return parse_markdown(path, text, diagnostics)


@FRONT_MATTER_READERS.register("yaml-requoted")
def _requoted(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """Safe YAML, read again with plain values quoted where it fails (``: `` in a value)."""
    return parse_markdown(path, text, diagnostics, lenient=True)


@FRONT_MATTER_READERS.register("yaml-unterminated")
def _unterminated(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """Safe YAML of the front matter without its last line break: a block scalar ending it
    keeps no final newline (``|``, ``>``), one ending earlier does."""
    return parse_markdown(path, text, diagnostics, final_break=False)


def markdown_fields(
    path: str, text: str, diagnostics: list[Diagnostic], *, reader: str = "yaml"
) -> tuple[dict[str, Any], Markdown] | None:
    """Skill fields and the file as ``reader`` reads it, or None when it cannot be a skill."""
    doc = FRONT_MATTER_READERS.get(reader)(path, text, diagnostics)
    if doc is None:
        return None
    if doc.meta is None:
        return {}, doc
    fields, problems = read_fields(doc.meta, path, line_finder(doc.key_lines))
    diagnostics.extend(problems)
    return fields, doc


_DASHED_BLOCK = re.compile(r"---\r?\n([\s\S]*?)\r?\n---(?:\r?\n)?")
_LINE_NAME = re.compile(r"^\s*name:\s*(.*)$")
_LINE_DESCRIPTION = re.compile(r"^\s*description:\s*(.*)$")
_CONTINUED = re.compile(r"^[ \t]+\S")


def _line_fields(source: str) -> dict[str, str] | None:
    """``name`` and ``description`` read line by line, as a loader does when its YAML
    parser rejects the block: the last ``name:`` line at any indent; a ``description:``
    line joined by single spaces with the indented lines after it. None without both."""
    lines = re.split(r"\r?\n", source)
    found: dict[str, str] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        if match := _LINE_NAME.match(line):
            found["name"] = match.group(1).strip()
        elif match := _LINE_DESCRIPTION.match(line):
            parts = [match.group(1).strip()]
            while index + 1 < len(lines) and _CONTINUED.match(lines[index + 1]):
                index += 1
                parts.append(lines[index].strip())
            found["description"] = " ".join(part for part in parts if part)
        index += 1
    return found if len(found) == 2 else None


_SURROGATE_PAIR = re.compile(r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})")


def _joined_pairs(source: str) -> str:
    """``source`` with each ``\\uD83D\\uDE80`` escape pair written as the one character it
    encodes: a JavaScript YAML parser builds strings of UTF-16 units, so a quoted emoji
    escaped as a surrogate pair is that emoji (strict YAML rejects the pair)."""

    def joined(match: re.Match[str]) -> str:
        high, low = int(match.group(1), 16), int(match.group(2), 16)
        return f"\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08X}"

    return _SURROGATE_PAIR.sub(joined, source)


def parse_js_yaml(source: str, path: str, repeated: list[DuplicateKey]) -> Any:
    """``source`` parsed as a JavaScript YAML parser reads it (see ``_joined_pairs``)."""
    try:
        return parse_yaml(source, path, first_line=2, duplicates=repeated)
    except InputError:
        joined = _joined_pairs(source)
        if joined == source:
            raise
        return parse_yaml(joined, path, first_line=2, duplicates=repeated)


@FRONT_MATTER_READERS.register("yaml-then-lines")
def _yaml_then_lines(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """The block between ``---`` and the first line starting ``---`` (its last line break
    not part of it), read as YAML when that gives a string ``name`` and ``description``
    (as js-yaml: a repeated key is an error; a line break is added where the block has
    none; a surrogate pair escape is its character), else line by line (``_line_fields``);
    a file without both is not loaded."""
    block = _DASHED_BLOCK.match(text)
    if block is None:
        diagnostics.append(Diagnostic(path, 1, "no '---' frontmatter block; skipped", "error"))
        return None
    source = block.group(1)
    repeated: list[DuplicateKey] = []
    try:
        ended = source if source.endswith("\n") else source + "\n"
        meta = parse_js_yaml(ended, path, repeated)
    except InputError:
        meta = None
    usable = (
        isinstance(meta, dict)
        and not repeated
        and isinstance(meta.get("name"), str)
        and isinstance(meta.get("description"), str)
    )
    if not usable:
        meta = _line_fields(source)
        if meta is None:
            diagnostics.append(
                Diagnostic(path, 2, "frontmatter lacks a name or description; skipped", "error")
            )
            return None
        diagnostics.append(
            Diagnostic(path, 2, "frontmatter not read as YAML; read line by line", "warning")
        )
    key_lines: dict[str, int] = {}
    for number, line in enumerate(source.split("\n"), start=2):
        if match := _TOP_KEY.match(line):
            key_lines.setdefault(fold_key(match.group(2)), number)
    start = block.end()
    return Markdown(meta, text, start, text.count("\n", 0, start) + 1, key_lines)
