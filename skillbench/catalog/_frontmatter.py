"""Reading skill files: bounded decoding, safe YAML frontmatter with file lines, and the body."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any, Protocol

import yaml

from skillbench._errors import InputError
from skillbench._io import UTF8_MARK_SKIPPED, split_lines
from skillbench._io import read_text as read_input
from skillbench._registry import Registry
from skillbench._yaml import DuplicateKey, parse_yaml
from skillbench.catalog._fields import first_paragraph, fold_key, read_fields, safe_texts
from skillbench.catalog._skill import (
    INLINE_BODY_CHARS,
    MAX_SKILL_BYTES,
    BodyFile,
    body_digest,
)
from skillbench.catalog._types import ByteOrderMark, Diagnostic

_TOP_KEY = re.compile(r"""^(["']?)([^\s"'#:][^:]*?)\1\s*:(?:\s|$)""")
_PLAIN_VALUE = re.compile(r"^([A-Za-z0-9_-]+):[ \t]+([^\s\"'|>\[{&*!%@`#].*?)[ \t]*$")
"""A top-level ``key: value`` line whose value is a plain scalar (what a lenient reader
quotes when strict YAML rejects the block, e.g. for a ``: `` inside a description)."""
_KEY_VALUE = re.compile(r"^([a-zA-Z_-]+):\s+(.+)$")
_SPECIAL = re.compile(r"[{}\[\]*&#!|>%@`]|: ")
_SURROGATES = re.compile(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def unsendable(path: str, *texts: str) -> list[Diagnostic]:
    """An error naming ``path`` when one of the texts a listing shows holds a UTF-16 surrogate
    (PyYAML keeps each half of a quoted ``\\uD83D\\uDE80`` escape as a character): an agent
    in Python fails every turn while the skill is installed, since no UTF-8 request can carry
    it."""
    if not any(_LONE_SURROGATE.search(t) for t in texts):
        return []
    reason = "a UTF-16 surrogate escape: no request can be sent while it is installed"
    return [Diagnostic(path, 2, reason, "error", agent_fails=True)]


def top_key_lines(lines: Iterable[str]) -> dict[str, int]:
    """The line of each top-level key's first appearance (folded), ``lines`` being the front
    matter's from the one after the opening ``---`` (line 2)."""
    key_lines: dict[str, int] = {}
    for number, line in enumerate(lines, start=2):
        if match := _TOP_KEY.match(line):
            key_lines.setdefault(fold_key(match.group(2)), number)
    return key_lines


def _special_quoted(source: str) -> str:
    """``source`` with every top-level value that holds a YAML indicator (``{}[]*&#!|>%@```
    or ``: ``) and is not already enclosed in quotes double-quoted, as it is, trailing
    spaces included."""

    def quote(line: str) -> str:
        match = _KEY_VALUE.match(line)
        value = match.group(2) if match else ""
        enclosed = len(value) > 1 and value[0] == value[-1] and value[0] in "\"'"
        if match is None or enclosed or not _SPECIAL.search(value):
            return line
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'{match.group(1)}: "{escaped}"'

    return "\n".join(quote(line) for line in source.split("\n"))


def _joined_surrogates(source: str) -> str:
    """``\\uD83D\\uDE80`` escapes (a UTF-16 pair, as JSON writes an emoji) as the one
    ``\\U0001F680`` escape a JavaScript YAML parser reads them as (PyYAML refuses a lone
    half)."""

    def join(match: re.Match[str]) -> str:
        high, low = int(match.group(1), 16), int(match.group(2), 16)
        return f"\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08X}"

    return _SURROGATES.sub(join, source)


def _quoted_values(source: str) -> str:
    """``source`` with every plain top-level value double-quoted, as a reader that
    requotes a frontmatter block strict YAML rejects reads it (``yaml-text-requoted``)."""

    def quote(line: str) -> str:
        match = _PLAIN_VALUE.match(line)
        if match is None:
            return line
        value = match.group(2).replace("\\", "\\\\").replace('"', '\\"')
        return f'{match.group(1)}: "{value}"'

    return "\n".join(quote(line) for line in source.split("\n"))


def read_text(
    path: Path,
    diagnostics: list[Diagnostic],
    *,
    limit: int = MAX_SKILL_BYTES,
    mark: ByteOrderMark = "skipped",
) -> str | None:
    """Text of the skill file ``path``, or None with an error diagnostic saying why not.

    Reads through ``skillbench._io``: regular files only, at most ``limit`` bytes, UTF-8
    (a byte-order mark or UTF-16 with one is decoded, with a warning). ``mark``: whether a
    UTF-8 byte-order mark is left out or kept as the text's first character.
    """
    try:
        text, note = read_input(path, limit=limit, log_note=False)
    except InputError as exc:
        where = exc.location
        diagnostics.append(Diagnostic(where.file, where.line, f"{exc.reason}; skipped", "error"))
        return None
    if note == UTF8_MARK_SKIPPED and mark == "kept":
        text = "\ufeff" + text
        note = "starts with a UTF-8 byte-order mark, read as text: no front matter opens line 1"
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
        listed: texts the agent lists exactly so, blank ones too (field → text), where its
            reader has a rule of its own for them (a description made from the body).
    """

    meta: dict[Any, Any] | None
    text: str
    body_start: int
    body_line: int
    key_lines: dict[str, int]
    listed: Mapping[str, str] = field(default_factory=dict)

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
    requote: Callable[[str], str] | None = None,
    prepare: Callable[[str], str] | None = None,
) -> Markdown | None:
    """Split frontmatter from body; None (with an error diagnostic) when the YAML is unusable.

    Only the frontmatter's lines are split out; the body stays one string.
    ``lenient``: YAML that fails to parse is read again with its plain ``key: value`` lines
    quoted (a warning says so), as the agents that list such a skill do.
    ``final_break``: the YAML is parsed with the line break before the closing ``---`` (False:
    without it, so a block scalar ending the front matter has no final line break).
    ``requote``: YAML that fails is read again so rewritten and, where that still fails,
    as empty (the skill loads without its fields). ``prepare``: the YAML is rewritten so
    before it is parsed at all.
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
    if prepare is not None:
        source = prepare(source)
    repeated: list[DuplicateKey] = []
    try:
        meta = parse_yaml(source, path, first_line=2, duplicates=repeated)
    except InputError as exc:
        reason = exc.reason.replace("invalid YAML", "invalid YAML frontmatter", 1)
        rewrite = requote or (_quoted_values if lenient else None)
        meta = None if rewrite is None else _reread(rewrite(source), path, repeated)
        if meta is None and requote is not None:
            meta, reason = {}, f"{reason}; read as empty, even with its values quoted"
        elif meta is None:
            diagnostics.append(Diagnostic(path, exc.location.line, reason, "error"))
            return None
        else:
            reason = f"{reason}; read with its values quoted"
        diagnostics.append(Diagnostic(path, exc.location.line, reason, "warning"))
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
    key_lines = top_key_lines(head)
    return Markdown(meta, text, start, len(head) + 3, key_lines)


def _reread(source: str, path: str, repeated: list[DuplicateKey]) -> Any:
    try:
        return parse_yaml(source, path, first_line=2, duplicates=repeated)
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


JS_SPACE = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What JavaScript's ``trim`` removes."""
BODY_LINES = 3
BODY_CHARS = 1024


def body_lines(body: str) -> str:
    """The description an agent makes from a body when the front matter has none: its first
    ``BODY_LINES`` lines that hold text and are not headings (``#`` first), trimmed, joined by
    one space, cut to ``BODY_CHARS`` characters (inner spaces and tabs kept)."""
    kept = (line for line in _trimmed_lines(body) if line and not line.startswith("#"))
    return " ".join(islice(kept, BODY_LINES))[:BODY_CHARS]


def _trimmed_lines(body: str) -> Iterator[str]:
    """``body.split("\\n")``, each line trimmed, one at a time (a body may be megabytes)."""
    start = 0
    while start <= len(body):
        end = body.find("\n", start)
        end = len(body) if end < 0 else end
        yield body[start:end].strip(JS_SPACE)
        start = end + 1


@FRONT_MATTER_READERS.register("yaml-unterminated-strict")
def _unterminated_strict(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """As ``yaml-unterminated``, but a file without front matter, or whose ``name`` or
    ``description`` is not a string (a number, ``true``, a list, null) or whose ``name`` is
    blank, is not loaded; a
    description is listed as written, blank too, and a missing one is made from the body
    (``body_lines``)."""
    doc = parse_markdown(path, text, diagnostics, final_break=False)
    if doc is None:
        return None
    if doc.meta is None:
        diagnostics.append(Diagnostic(path, 1, "no '---' frontmatter block; skipped", "error"))
        return None
    for key in ("name", "description"):
        if key in doc.meta and not isinstance(doc.meta[key], str):
            kind = "null" if doc.meta[key] is None else type(doc.meta[key]).__name__
            line = doc.key_lines.get(key)
            diagnostics.append(
                Diagnostic(path, line, f"a {kind}, not a string; skill skipped", "error", key)
            )
            return None
    if "name" in doc.meta and not doc.meta["name"].strip():
        diagnostics.append(
            Diagnostic(path, doc.key_lines.get("name"), "blank; skill skipped", "error", "name")
        )
        return None
    description = doc.meta.get("description")
    return replace(
        doc, listed={"description": body_lines(doc.body) if description is None else description}
    )


_ANSI = re.compile(
    r"\x1b\][\s\S]*?(?:\x07|\x1b\\|\x9c)"
    r"|[\x1b\x9b][\[\]()#;?]*(?:\d{1,4}(?:[;:]\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]"
)
"""Terminal escape sequences: OSC (``ESC ]`` … terminator) and CSI and the like."""


_VARIATION = re.compile("[\ufe00-\ufe0f]")


@cache
def _unsafe_runs() -> re.Pattern[str]:
    """Runs of control, format and line or paragraph separator characters and variation
    selectors (combining marks and other spaces are not among them); built once, on first
    use."""
    chars = (chr(c) for c in range(sys.maxunicode + 1))
    unsafe = [c for c in chars if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    unsafe += [chr(c) for c in range(0xFE00, 0xFE10)]
    return re.compile(f"[{re.escape(''.join(unsafe))}]+")


def spaced_text(text: str) -> str:
    """``text`` (trimmed first) as an agent that writes invisible characters as spaces
    lists it: terminal escape sequences removed, then each run of control, format and
    separator characters (line breaks and tabs included) one space; spaces are kept as
    they are (``a   b`` stays, a zero-width space ending the text leaves a space)."""
    text = text.strip(JS_SPACE)
    if text.isprintable() and not _VARIATION.search(text):
        return text
    return _unsafe_runs().sub(" ", _ANSI.sub("", text))


def _texts_as_read(meta: dict[Any, Any]) -> dict[str, str]:
    """The description and ``when_to_use`` as read; one holding what a listing must not carry
    as written (a control or bidirectional character) as ``spaced_text`` writes it."""
    return {
        key: value if safe_texts({key: value}) else spaced_text(value)
        for key in ("description", "when_to_use")
        if isinstance(value := meta.get(key), str)
    }


@FRONT_MATTER_READERS.register("yaml-requoted-indicators")
def _requoted_indicators(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """Safe YAML (``\\uD83D\\uDE80`` pair escapes read as one character), read again where
    it fails with every value holding a YAML indicator quoted (``_special_quoted``); front
    matter that still fails is empty (the skill loads, by its folder and body), and front
    matter never closed is none (the whole file is the body). The description and
    ``when_to_use`` are listed as read, invisible characters included."""
    if _closed(text):
        doc = parse_markdown(
            path, text, diagnostics, requote=_special_quoted, prepare=_joined_surrogates
        )
    else:
        diagnostics.append(
            Diagnostic(
                path, 1, "frontmatter opened with '---' is never closed: read as body", "warning"
            )
        )
        return Markdown(None, text, 0, 1, {})
    if doc is None:
        return None
    return replace(doc, listed=_texts_as_read(doc.meta or {}))


_CLOSING = re.compile(r"^(?:---|\.\.\.)[^\S\n]*$", re.MULTILINE)


def _closed(text: str) -> bool:
    """Whether front matter opened on the first line is closed (or there is none)."""
    first, _, rest = text.partition("\n")
    return first.strip() != "---" or _CLOSING.search(rest) is not None


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
    key_lines = top_key_lines(source.split("\n"))
    start = block.end()
    return Markdown(meta, text, start, text.count("\n", 0, start) + 1, key_lines)


_OPENING = re.compile(r"---\r?\n")
_AFTER_CLOSING = re.compile(r"\r?\n?")


def _closing(text: str, start: int) -> tuple[int, int] | None:
    """Where the first ``\\n---`` line at or after ``start`` begins (its ``\\r`` included)
    and where the body after it starts; None without one."""
    found = text.find("\n---", start)
    if found < 0:
        return None
    begin = found - 1 if found > start and text[found - 1] == "\r" else found
    after = _AFTER_CLOSING.match(text, found + 4)
    return begin, after.end() if after else found + 4


def _parse_block(source: str, path: str) -> Any:
    """The block as YAML (a repeated key is an error), read again with UTF-16 escape pairs
    joined where they alone made it fail."""
    try:
        return parse_yaml(source, path, first_line=2, lines=True)
    except InputError:
        paired = _joined_pairs(source)
        if paired == source:
            raise
        return parse_yaml(paired, path, first_line=2, lines=True)


_FLAGS = ("disabled", "enabled")


_CORE_SCHEMA = re.compile(
    r"true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)"
    r"|\.(?:nan|NaN|NAN)"
)
"""A plain scalar YAML 1.2's core schema reads as a boolean or a number."""


def _as_core_schema(data: dict[Any, Any], source: str) -> dict[Any, Any]:
    """``data`` with each field read here that PyYAML (YAML 1.1) typed from a plain scalar
    YAML 1.2 reads as a string (``yes``, ``2024-01-01``, ``1_000``) given back as written."""
    typed = {k for k in ("name", "description", *_FLAGS) if _typed(data.get(k))}
    if not typed:
        return data
    root = yaml.compose(source, Loader=yaml.SafeLoader)
    fixed = dict(data)
    for key, value in root.value if isinstance(root, yaml.MappingNode) else ():
        plain = isinstance(value, yaml.ScalarNode) and value.style is None
        if key.value in typed and plain and not _CORE_SCHEMA.fullmatch(value.value):
            fixed[key.value] = value.value
    return fixed


def _typed(value: Any) -> bool:
    return isinstance(value, bool | int | float | date)


def _typed_fields(data: Any, source: str) -> tuple[dict[str, Any], str | None]:
    """``name``, ``description`` and the disabled switch of a parsed block (scalars typed as
    YAML 1.2 types them), or why the file is not loaded (a field of the wrong type)."""
    data = _as_core_schema(data, source) if isinstance(data, dict) else {}
    meta: dict[str, Any] = {}
    for key in ("name", "description"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            return {}, f"front matter field '{key}' is not a string"
        if value is not None:
            meta[key] = value
    switch = next((key for key in _FLAGS if data.get(key) is not None), None)
    value = data.get(switch) if switch else None
    if switch is not None and not isinstance(value, bool):
        return {}, f"front matter field '{switch}' is not a boolean"
    if value is (switch == "disabled"):
        meta["disable-model-invocation"] = True
    return meta, None


@FRONT_MATTER_READERS.register("yaml-typed")
def _yaml_typed(path: str, text: str, diagnostics: list[Diagnostic]) -> Markdown | None:
    """The block from a first line ``---`` to the next line starting ``---`` read as safe
    YAML (a repeated key is an error); a file without the block is all body. Only
    ``name``, ``description`` and ``disabled`` (else ``enabled: false``) are read, as
    ``disable-model-invocation``. The file is not loaded when the YAML fails, a field has
    the wrong type, or no body follows."""
    shift = 1 if text.startswith("\ufeff") else 0
    opening = _OPENING.match(text, shift)
    closing = _closing(text, opening.end()) if opening else None
    meta: dict[str, Any] | None = None
    key_lines: dict[str, int] = {}
    start = shift
    if opening is not None and closing is not None:
        source = text[opening.end() : closing[0]]
        try:
            data = _parse_block(source, path)
        except InputError as exc:
            reason = exc.reason.replace("invalid YAML", "invalid YAML frontmatter", 1)
            diagnostics.append(Diagnostic(path, exc.location.line, f"{reason}; skipped", "error"))
            return None
        meta, problem = _typed_fields(data, source)
        if problem is not None:
            diagnostics.append(Diagnostic(path, 2, f"{problem}; skipped", "error"))
            return None
        key_lines = top_key_lines(source.split("\n"))
        start = closing[1]
    if not text[start:].strip():
        diagnostics.append(
            Diagnostic(path, None, "no instructions after the front matter; skipped", "error")
        )
        return None
    return Markdown(meta, text, start, text.count("\n", 0, start) + 1, key_lines)
