"""Front matter as a JavaScript loader reads it: the ``yaml`` package (core schema), its
key-value fallback, and ``String()`` of what they return.

An agent written in JavaScript lists ``String(value)`` of a field, whatever type its YAML
parser gave: ``12.50`` is ``12.5``, a list is its items joined by ``,``. Its fallback
parser, used where the YAML parser throws (a repeated key, a quoted scalar followed by
text), keeps only top-level ``key: value`` lines, ``  - item`` lists and one level of
``  key: value`` mappings, turning numbers into numbers.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from skillbench._errors import InputError
from skillbench._yaml import DuplicateKey
from skillbench.catalog._frontmatter import (
    FRONT_MATTER_READERS,
    Markdown,
    parse_js_yaml,
    top_key_lines,
)
from skillbench.catalog._types import Diagnostic

_BLOCK = re.compile(r"---\n([\s\S]*?)\n---(?:\n|$)")
"""The front matter block: ``---`` opening the file, up to the first ``\\n---`` that ends
its line or the file."""

_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_RADIX = re.compile(r"0([xX][0-9a-fA-F]+|[bB][01]+|[oO][0-7]+)")


def js_number(text: str) -> int | float | None:
    """``Number(text)`` where it is finite, else None (``text`` is trimmed and not empty)."""
    if _DECIMAL.fullmatch(text):
        value = float(text)
        return value if value not in (float("inf"), float("-inf")) else None
    if radix := _RADIX.fullmatch(text):
        return int(radix.group(0), 0)
    return None


def js_string(value: Any) -> str:
    """``String(value)`` of a parsed YAML value (numbers as JavaScript writes them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        if 1e-6 <= abs(value) < 1e21 or value == 0:
            return format(Decimal(repr(value)), "f").removesuffix(".0")
        mantissa, _, exponent = repr(value).partition("e")
        power = int(exponent)
        return f"{mantissa.removesuffix('.0')}e{'+' if power > 0 else '-'}{abs(power)}"
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def _simple_value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text == "null":
        return None
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    number = js_number(text) if text else None
    return text if number is None else number


def simple_pairs(source: str) -> dict[str, Any]:
    """The fallback parser (see the module docstring), line by line as the agent runs it."""
    lines = [x for x in source.split("\n") if x.strip() and not x.strip().startswith("#")]
    result: dict[str, Any] = {}
    key, in_list = "", False
    items: list[Any] = []
    mapping: dict[str, Any] = {}
    mapping_key: str | None = None
    for index, line in enumerate(lines):
        if line.startswith("  - "):
            items = items if in_list else []
            in_list = True
            items.append(_simple_value(line[4:].strip()))
            continue
        if in_list:
            result[key], items, in_list, key = items, [], False, ""
        if line.startswith("  ") and mapping_key is not None:
            inner, *rest = line.strip().split(":")
            mapping[inner.strip()] = _simple_value(":".join(rest).strip())
            continue
        if mapping_key is not None:
            result[mapping_key], mapping, mapping_key = mapping, {}, None
        if ":" not in line:
            continue
        head, *rest = line.split(":")
        value = ":".join(rest).strip()
        if value:
            result[head.strip()] = _simple_value(value)
            continue
        key = head.strip()
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if following.startswith("  ") and not following.startswith("  - "):
            mapping, mapping_key, key = {}, key, ""
    if in_list:
        result[key] = items
    if mapping_key is not None:
        result[mapping_key] = mapping
    return result


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value if v is not None]
    return value


@FRONT_MATTER_READERS.register("yaml-then-pairs")
def _yaml_then_pairs(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """The block (``_BLOCK``, line ends made ``\\n``) read as YAML with a line break
    ending it where it has none (a repeated key is an error), else by ``simple_pairs``;
    null values dropped; a file whose ``name`` or ``description`` is then missing, empty or
    a mapping is not loaded, and both are listed as ``String()`` of their values. YAML 1.1
    readings the agent's YAML 1.2 parser does not make (``yes`` as true, ``1e3`` as text)
    are not undone."""
    normal = text.replace("\r\n", "\n").replace("\r", "\n")
    block = _BLOCK.match(normal)
    if block is None:
        diagnostics.append(Diagnostic(path, 1, "no '---' frontmatter block; skipped", "error"))
        return None
    source = block.group(1)
    repeated: list[DuplicateKey] = []
    try:
        meta = parse_js_yaml(source if source.endswith("\n") else source + "\n", path, repeated)
    except InputError:
        meta = None
    if not isinstance(meta, dict) or repeated:
        diagnostics.append(
            Diagnostic(path, 2, "frontmatter not read as YAML; read as key: value lines", "warning")
        )
        meta = simple_pairs(source)
    meta = _without_nulls(meta)
    if any(meta.get(key) in (None, "") for key in ("name", "description")):
        diagnostics.append(
            Diagnostic(path, 2, "frontmatter lacks a name or description; skipped", "error")
        )
        return None
    if any(isinstance(meta[key], dict) for key in ("name", "description")):
        reason = "a mapping as name or description has no text (String() throws); skipped"
        diagnostics.append(Diagnostic(path, 2, reason, "error"))
        return None
    meta["name"], meta["description"] = js_string(meta["name"]), js_string(meta["description"])
    key_lines = top_key_lines(source.split("\n"))
    start = block.end()
    return Markdown(meta, normal, start, normal.count("\n", 0, start) + 1, key_lines)


_KEY_VALUE = re.compile(r"^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$")


def colon_values_as_blocks(source: str) -> str:
    """``source`` with each top-level ``key: value`` whose unquoted value holds a ``:``
    written as a ``|-`` block: the rewrite a loader tries when its YAML parser throws."""
    lines = []
    for line in re.split(r"\r?\n", source):
        match = _KEY_VALUE.match(line)
        value = match.group(2).strip() if match else ""
        if (
            match is None
            or line[:1].isspace()
            or value in ("", ">", "|")
            or value.startswith(("'", '"'))
            or ":" not in value
        ):
            lines.append(line)
        else:
            lines += [f"{match.group(1)}: |-", f"  {value}"]
    return "\n".join(lines)


_QUOTED_THEN_MORE = re.compile(
    r"""^(\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'#:][^:#]*?)\s*:[ \t]+"""
    r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'))[ \t]*([^\s#].*)$"""
)
"""A ``key: "quoted value"`` line with more text after its closing quote."""


def _entries_after_quotes(source: str) -> str:
    """``source`` with the text after a quoted value on its line moved to a line of its own
    at the key's indentation: js-yaml 3 reads ``a: "x"b: 1`` as two entries (js-yaml 4 and
    strict YAML refuse the line)."""
    lines = []
    for line in source.split("\n"):
        while match := _QUOTED_THEN_MORE.match(line):
            indent = line[: len(line) - len(line.lstrip())]
            lines.append(match.group(1))
            line = indent + match.group(2)
        lines.append(line)
    return "\n".join(lines)


def _js_yaml(source: str, path: str, *, entries_after_quotes: bool = False) -> Any:
    """js-yaml's reading of ``source`` (a repeated key is an error), None where it throws;
    ``entries_after_quotes``: as js-yaml 3 (``_entries_after_quotes``)."""
    repeated: list[DuplicateKey] = []
    ended = source if source.endswith("\n") else source + "\n"
    try:
        meta = parse_js_yaml(ended, path, repeated)
    except InputError:
        split = _entries_after_quotes(ended) if entries_after_quotes else ended
        if split == ended:
            return None
        return _js_yaml(split, path)
    return None if repeated else meta


@FRONT_MATTER_READERS.register("gray-matter")
def _gray_matter(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """A file opening with ``---`` has as front matter everything up to the next ``\\n---``
    (the rest of the file when there is none), read by js-yaml 3; where that throws, read
    again with ``colon_values_as_blocks``; where that throws too, the file is not loaded.
    A file not opening with ``---`` has no front matter."""
    if not text.startswith("---"):
        return Markdown(None, text, 0, 1, {})
    close = text.find("\n---", 3)
    end = len(text) if close < 0 else close
    source = text[3:end]
    meta = _js_yaml(source, path, entries_after_quotes=True)
    if meta is None:
        meta = _js_yaml(colon_values_as_blocks(source), path, entries_after_quotes=True)
        if meta is None:
            diagnostics.append(Diagnostic(path, 2, "invalid YAML frontmatter; skipped", "error"))
            return None
        diagnostics.append(
            Diagnostic(path, 2, "frontmatter read with its ': ' values as blocks", "warning")
        )
    if not isinstance(meta, dict):
        meta = {}
    key_lines = top_key_lines(source.split("\n")[1:])
    start = len(text) if close < 0 else text.find("\n", close + 1) + 1 or len(text)
    return Markdown(meta, text, start, text.count("\n", 0, start) + 1, key_lines)


@FRONT_MATTER_READERS.register("yaml-package")
def _yaml_package(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """Line ends made ``\\n``; a file opening with ``---`` has as front matter the text
    after that line up to the next ``\\n---``, read by the ``yaml`` package (a repeated key
    is an error); the file is loaded only when that gives a ``description`` that is text
    and not blank (no front matter, an unclosed one, YAML that throws, a number, a list or
    an empty description leave it out)."""
    normal = text.replace("\r\n", "\n").replace("\r", "\n")
    end = normal.find("\n---", 3) if normal.startswith("---") else -1
    meta = _js_yaml(normal[4:end], path) if end >= 0 else None
    if not isinstance(meta, dict):
        meta = {}
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        reason = "no description read from its front matter (none, invalid YAML or not text)"
        diagnostics.append(Diagnostic(path, 1, f"{reason}; skipped", "error"))
        return None
    key_lines = top_key_lines(normal[4:end].split("\n"))
    start = end + 4
    return Markdown(meta, normal, start, normal.count("\n", 0, start) + 1, key_lines)
