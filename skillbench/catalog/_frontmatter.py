"""Reading skill files: bounded decoding, safe YAML frontmatter with file lines, and the body."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skillbench._errors import InputError
from skillbench._io import MiB
from skillbench._io import read_text as read_input
from skillbench._yaml import DuplicateKey, parse_yaml
from skillbench.catalog._fields import fold_key, read_fields
from skillbench.catalog._types import Diagnostic

MAX_SKILL_BYTES = 8 * MiB
"""Largest skill file read; real SKILL.md files are under 100 KB."""

_TOP_KEY = re.compile(r"""^(["']?)([^\s"'#:][^:]*?)\1\s*:(?:\s|$)""")


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


@dataclass(frozen=True, slots=True)
class Markdown:
    """A parsed skill Markdown file.

    Attributes:
        meta: frontmatter mapping, ``None`` when the file has no frontmatter.
        body: the text after the frontmatter (the whole file without one).
        key_lines: folded top-level key → 1-based file line.
    """

    meta: dict[Any, Any] | None
    body: str
    key_lines: dict[str, int]


def parse_markdown(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """Split frontmatter from body; None (with an error diagnostic) when the YAML is unusable."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return Markdown(None, text, {})
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if end is None:
        diagnostics.append(
            Diagnostic(path, 1, "frontmatter opened with '---' is never closed", "error")
        )
        return None
    source = "".join(lines[1:end])
    repeated: list[DuplicateKey] = []
    try:
        meta = parse_yaml(source, path, first_line=2, duplicates=repeated)
    except InputError as exc:
        reason = exc.reason.replace("invalid YAML", "invalid YAML frontmatter", 1)
        diagnostics.append(Diagnostic(path, exc.location.line, reason, "error"))
        return None
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
    for number, line in enumerate(lines[1:end], start=2):
        match = _TOP_KEY.match(line)
        if match:
            key_lines.setdefault(fold_key(match.group(2)), number)
    return Markdown(meta, "".join(lines[end + 1 :]), key_lines)


def markdown_fields(
    path: str, text: str, diagnostics: list[Diagnostic]
) -> tuple[dict[str, Any], Markdown] | None:
    """Skill fields and the parsed file, or None when the file cannot be a skill."""
    doc = parse_markdown(path, text, diagnostics)
    if doc is None:
        return None
    if doc.meta is None:
        return {}, doc
    fields, problems = read_fields(doc.meta, path, line_finder(doc.key_lines))
    diagnostics.extend(problems)
    return fields, doc
