"""Reading skill files: text decoding, YAML frontmatter with file line numbers, and the body."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from skillbench.catalog._fields import fold_key, read_fields
from skillbench.catalog._types import Diagnostic

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TOP_KEY = re.compile(r"""^(["']?)([^\s"'#:][^:]*?)\1\s*:(?:\s|$)""")


def read_text(path: Path, diagnostics: list[Diagnostic]) -> str | None:
    """UTF-8 text of ``path`` (BOM dropped), or None with an error diagnostic saying why not."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        diagnostics.append(Diagnostic(str(path), None, f"cannot read: {exc.strerror}", "error"))
        return None
    if b"\x00" in data:
        diagnostics.append(Diagnostic(str(path), None, "binary file skipped", "error"))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        diagnostics.append(
            Diagnostic(str(path), line, f"not UTF-8 (byte {exc.start}); file skipped", "error")
        )
        return None
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
    try:
        meta = yaml.load(source, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 2 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        diagnostics.append(Diagnostic(path, line, f"invalid YAML frontmatter: {problem}", "error"))
        return None
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
