"""The ``yaml-then-first-line`` front-matter reader: YAML when it gives a description, else
the file's first line of text.

Some agents read a ``SKILL.md`` permissively: front matter (PyYAML's ``safe_load``: its pure
Python parser, which refuses a tab inside a plain value) only when the file starts with
``---`` and a line ``---`` closes it, its ``name`` and ``description`` only when they are
non-empty strings (stripped), and without a description the first line of the file that is
neither blank, a heading nor ``---``, cut to 200 characters, front matter lines included (so
a file whose front matter lacks a description is described by its ``name: …`` line). A ``# ``
heading met before that line names a skill whose front matter gives no other name. Without
any such line the description is ``Skill: {name}``. Every file loads; one whose name or
description holds a UTF-16 surrogate (a quoted ``\\uD83D`` escape: PyYAML keeps each half as
a character) makes the agent fail every turn, since its request cannot be encoded as UTF-8.
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

from skillbench._errors import InputError
from skillbench._io import head_bytes
from skillbench._yaml import parse_yaml
from skillbench.catalog._fields import FALLBACK_DESCRIPTION_CHARS
from skillbench.catalog._frontmatter import FRONT_MATTER_READERS, Markdown, unsendable
from skillbench.catalog._types import Diagnostic

OPEN = "---\n"
CLOSE = "\n---\n"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _flag(value: Any) -> bool | None:
    """A permissive boolean: a YAML one, or its text among the usual words (None: neither)."""
    if isinstance(value, bool) or value is None:
        return value
    word = str(value).strip().lower()
    return True if word in _TRUE else False if word in _FALSE else None


def _as_read(path: str, text: str) -> str:
    """``text`` as a reader opening the file in text mode sees it: universal line ends, and a
    UTF-8 byte-order mark kept as a character (skillbench's decoder drops it)."""
    bom = head_bytes(path, len(codecs.BOM_UTF8)) == codecs.BOM_UTF8
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "\ufeff" + text if bom and not text.startswith("\ufeff") else text


@FRONT_MATTER_READERS.register("yaml-then-first-line")
def _yaml_then_first_line(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown:
    """See the module docstring; ``name`` defaults to the skill's folder name."""
    folder = Path(path).parent.name
    content = _as_read(path, text)
    name, description, meta, start = folder, "", {}, 0
    end = content.find(CLOSE, len(OPEN)) if content.startswith(OPEN) else -1
    if end >= 0:
        start = end + len(CLOSE)
        try:
            data = parse_yaml(content[len(OPEN) : end], path, first_line=2, pure=True)
        except InputError as exc:
            data = None
            reason = f"{exc.reason}; front matter ignored"
            diagnostics.append(Diagnostic(path, exc.location.line, reason, "warning"))
        if isinstance(data, dict):
            meta = data
            if isinstance(data.get("name"), str) and data["name"].strip():
                name = data["name"].strip()
            if isinstance(data.get("description"), str):
                description = data["description"].strip()
    if not description:
        for line in content.splitlines():
            stripped = line.strip()
            if stripped.startswith("# "):
                if name == folder:
                    name = stripped[2:].strip() or folder
                continue
            if stripped and not stripped.startswith(("---", "#")):
                description = stripped[:FALLBACK_DESCRIPTION_CHARS]
                break
    diagnostics.extend(unsendable(path, name, description))
    fields: dict[str, Any] = {
        "name": name,
        "description": description or f"Skill: {name}",
        "disable-model-invocation": _flag(meta.get("disable-model-invocation")) or False,
    }
    return Markdown(fields, content, start, content.count("\n", 0, start) + 1, {})
