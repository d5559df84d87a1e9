"""The ``yaml-str`` front-matter reader: PyYAML's ``safe_load``, every field as Python's
``str()`` of its value.

Some agents written in Python read a ``SKILL.md`` so: the front matter is the text between a
first line ``---`` and the next line ``---`` (each may carry trailing spaces; the closing one
must end in a line break), parsed by PyYAML's pure-Python ``safe_load``; a file without that
block, with YAML it refuses, or whose YAML is not a mapping is not loaded. ``name`` and
``description`` are ``str()`` of their values, stripped (so ``name:`` left empty is the
text ``None``, a number its Python spelling) and the file is not loaded when either is empty;
a description keeps its first ``MAX_DESCRIPTION_CHARS`` characters. ``license`` and
``compatibility`` (its first ``MAX_COMPATIBILITY_CHARS``) are read the same way, and
``allowed-tools`` as a list or a text split at spaces and commas: texts a listing may show
beside the description (``ListingFormat.details``). A text holding a UTF-16 surrogate makes
the agent fail every turn (``unsendable``).
"""

from __future__ import annotations

import re
from typing import Any

from skillbench._errors import InputError
from skillbench._yaml import parse_yaml
from skillbench.catalog._fields import MAX_DESCRIPTION_CHARS
from skillbench.catalog._frontmatter import (
    FRONT_MATTER_READERS,
    Markdown,
    top_key_lines,
    unsendable,
)
from skillbench.catalog._types import Diagnostic

MAX_COMPATIBILITY_CHARS = 500
_BLOCK = re.compile(r"---\s*\n(.*?)\n---\s*\n", re.DOTALL)
_TOOL_SEPARATORS = re.compile(r"[\s,]+")


def _text(data: dict[Any, Any], key: str) -> str:
    return str(data.get(key, "")).strip()


def _tools(value: Any) -> list[str]:
    """``allowed-tools`` as the agent lists it: a text split at spaces and commas, or a
    list's texts stripped; any other value lists none."""
    if isinstance(value, str):
        return [tool for tool in _TOOL_SEPARATORS.split(value) if tool]
    if isinstance(value, list):
        return [t.strip() for t in value if isinstance(t, str) and t.strip()]
    return []


@FRONT_MATTER_READERS.register("yaml-str")
def _yaml_str(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """See the module docstring."""
    block = _BLOCK.match(text)
    if block is None:
        reason = "no front matter block (a line '---', the YAML, a line '---'): not loaded"
        diagnostics.append(Diagnostic(path, 1, reason, "error"))
        return None
    source = block.group(1)
    try:
        data = parse_yaml(source, path, first_line=2, pure=True)
    except InputError as exc:
        reason = exc.reason.replace("invalid YAML", "invalid YAML frontmatter", 1)
        diagnostics.append(Diagnostic(path, exc.location.line, f"{reason}; not loaded", "error"))
        return None
    if not isinstance(data, dict):
        reason = f"frontmatter is a {type(data).__name__}, not a mapping: not loaded"
        diagnostics.append(Diagnostic(path, 2, reason, "error"))
        return None
    name, description = _text(data, "name"), _text(data, "description")
    if not name or not description:
        reason = "the name or the description is missing or empty: not loaded"
        diagnostics.append(Diagnostic(path, 2, reason, "error"))
        return None
    description = description[:MAX_DESCRIPTION_CHARS]
    listed = {
        "name": name,
        "description": description,
        "license": _text(data, "license"),
        "compatibility": _text(data, "compatibility")[:MAX_COMPATIBILITY_CHARS],
        "allowed-tools": ", ".join(_tools(data.get("allowed-tools"))),
    }
    diagnostics.extend(unsendable(path, *listed.values()))
    meta = {"name": name, "description": description}
    start = block.end()
    key_lines = top_key_lines(source.split("\n"))
    line = text.count("\n", 0, start) + 1
    return Markdown(meta, text, start, line, key_lines, {k: v for k, v in listed.items() if v})
