"""Frontmatter / skill.json keys → Skill fields, one table for every input format.

Keys are matched after folding ``_`` to ``-`` and case, so ``when_to_use``, ``when-to-use``
and ``allowed_tools`` all work. A value of the wrong shape is dropped with a warning naming
the key; an unknown key is a warning suggesting the nearest valid one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any

from skillbench._errors import suggest
from skillbench._io import split_lines
from skillbench._sanitize import (
    _BIDI,
    MAX_NAME_CHARS,
    MAX_TEXT_CHARS,
    NameRule,
    TextRule,
    clean_line,
    name_problem,
    path_problem,
    rule_name,
)
from skillbench._yaml import as_json
from skillbench.catalog._skill import BodyFile, Skill, SourceKind, normalize_context
from skillbench.catalog._types import Diagnostic
from skillbench.types import JsonObject

MAX_DESCRIPTION_CHARS = 1024
FALLBACK_DESCRIPTION_CHARS = 200

_WORD = re.compile(r"(?:[^\s,(]|\([^)]*\))+")
"""A list item in a string value: split on commas/whitespace, but keep ``Bash(git add:*)`` whole."""

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _text(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"expected text, got {type(value).__name__}")
    return str(value)


def _words(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(_WORD.findall(value))
    if isinstance(value, list | tuple) and all(
        isinstance(v, str | int | float) and not isinstance(v, bool) for v in value
    ):
        return tuple(str(v) for v in value)
    raise ValueError(f"expected a list or a string, got {type(value).__name__}")


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(f"expected true or false, got {value!r}")


def _int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    raise ValueError(f"expected an integer, got {value!r}")


def _mapping(value: Any) -> JsonObject:
    if isinstance(value, Mapping):
        return {str(k): as_json(v) for k, v in value.items()}
    raise ValueError(f"expected a mapping (JSON Schema), got {type(value).__name__}")


def _side_effects(value: Any) -> tuple[str, ...]:
    """``skill.json`` declarations write ``side_effects: true``; a list names the effects."""
    if isinstance(value, bool):
        return ("unspecified",) if value else ()
    return _words(value)


FIELDS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "name": ("name", _text),
    "description": ("description", _text),
    "when-to-use": ("when_to_use", _text),
    "argument-hint": ("argument_hint", _text),
    "arguments": ("arguments", _words),
    "context": ("context", normalize_context),
    "agent": ("agent", _text),
    "model": ("model", _text),
    "effort": ("effort", _text),
    "allowed-tools": ("allowed_tools", _words),
    "paths": ("paths", _words),
    "user-invocable": ("user_invocable", _bool),
    "disable-model-invocation": ("disable_model_invocation", _bool),
    "aliases": ("aliases", _words),
    "version": ("version", _text),
    "tags": ("tags", _words),
    "trigger-keywords": ("trigger_keywords", _words),
    "priority": ("priority", _int),
    "side-effects": ("side_effects", _side_effects),
    "permission": ("permission", _text),
    "parameters": ("parameters", _mapping),
    "dependencies": ("dependencies", _words),
}
"""Folded key → (Skill attribute, coercion)."""

IGNORED_KEYS = frozenset(
    {"license", "compatibility", "metadata", "timeout-seconds", "output-schema"}
)
"""Valid keys (Agent Skills spec, ``skill.json``) that no part of skillbench acts on."""


def fold_key(key: str) -> str:
    return key.strip().lower().replace("_", "-")


def read_fields(
    raw: Mapping[Any, Any], path: str, line_of: Callable[[str], int | None]
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Skill keyword arguments from one parsed mapping, plus warnings for what was dropped.

    ``line_of(key)`` gives the file line of a key as written, for diagnostics.
    """
    fields: dict[str, Any] = {}
    diagnostics: list[Diagnostic] = []
    for key, value in raw.items():
        folded = fold_key(str(key))
        spec = FIELDS.get(folded)
        if spec is None:
            if folded not in IGNORED_KEYS:
                hint = suggest(folded, FIELDS)
                diagnostics.append(
                    Diagnostic(
                        path, line_of(str(key)), f"unknown key ignored{hint}", "warning", str(key)
                    )
                )
            continue
        if value is None:
            continue
        attr, coerce = spec
        try:
            fields[attr] = coerce(value)
        except ValueError as exc:
            diagnostics.append(
                Diagnostic(path, line_of(str(key)), f"{exc}; value ignored", "warning", str(key))
            )
    return fields, diagnostics


def first_paragraph(body: str) -> str:
    """The text a fallback description is cut from: the first paragraph after the first ``#``
    heading, else the first paragraph, at most ``FALLBACK_DESCRIPTION_CHARS`` characters
    (read line by line, stopping as soon as the cut is known)."""
    heading = next((i + 1 for i, line in enumerate(split_lines(body)) if line.startswith("# ")), 0)
    paragraph: list[str] = []
    size = -1
    for line in islice(split_lines(body), heading, None):
        text = line.strip()
        if text.startswith("#") or (not text and paragraph):
            if paragraph:
                break
            continue
        if text:
            paragraph.append(text)
            size += len(text) + 1
            if size >= FALLBACK_DESCRIPTION_CHARS:
                break
    return " ".join(paragraph)[:FALLBACK_DESCRIPTION_CHARS]


def loaded_fallback_description(body: str | BodyFile, name: str) -> str:
    """The description the loader gives a skill whose frontmatter has none (the first
    paragraph, else ``Skill: {name}``), so a profile whose agent derives
    its own can tell it apart from one the author wrote (a body left in its file kept its
    first paragraph for this)."""
    paragraph = body.paragraph if isinstance(body, BodyFile) else first_paragraph(body)
    return clean_line(paragraph or f"Skill: {name}").text


def first_heading(body: str) -> str | None:
    return next((line[2:].strip() for line in split_lines(body) if line.startswith("# ")), None)


def _clean(
    fields: dict[str, Any], path: str, line_of: Callable[[str], int | None], rule: TextRule
) -> list[Diagnostic]:
    """Sanitise every text field in place (see ``skillbench._sanitize``); warn on removals."""
    diagnostics: list[Diagnostic] = []
    for attr, value in list(fields.items()):
        if isinstance(value, str):
            cleaned = clean_line(value, rule)
            fields[attr], removed = cleaned.text, list(cleaned.removed)
        elif isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            items = [clean_line(v, rule) for v in value]
            fields[attr] = tuple(c.text for c in items if c.text)
            removed = sorted({r for c in items for r in c.removed})
        else:
            continue
        if removed:
            diagnostics.append(
                Diagnostic(path, line_of(attr), f"removed {', '.join(removed)}", "warning", attr)
            )
        text = fields[attr]
        if isinstance(text, str) and len(text) > MAX_TEXT_CHARS:
            fields[attr] = text[:MAX_TEXT_CHARS]
            diagnostics.append(
                Diagnostic(
                    path,
                    line_of(attr),
                    f"{len(text):,} characters; kept the first {MAX_TEXT_CHARS:,}",
                    "warning",
                    attr,
                )
            )
    return diagnostics


def _limit(
    value: str, limit: int, field: str, strict: bool, path: str, line: int | None
) -> Diagnostic | None:
    """The Agent Skills length rule: an error for a loader that enforces it (``strict``),
    else a warning."""
    if len(value) <= limit:
        return None
    if strict:
        return Diagnostic(
            path, line, f"invalid {field}: exceeds maximum length of {limit} characters", "error"
        )
    reason = f"{field} is {len(value)} characters, over the {limit} the Agent Skills format allows"
    return Diagnostic(path, line, reason, "warning", field)


def make_skill(
    fields: dict[str, Any],
    *,
    path: str,
    source: SourceKind,
    default_name: str,
    name_rule: NameRule,
    text_rule: TextRule = "printable",
    strict_limits: bool = False,
    body: str | BodyFile = "",
    line_of: Callable[[str], int | None] = lambda _: None,
    warn_missing_description: bool = True,
) -> tuple[Skill | None, list[Diagnostic]]:
    """Build the Skill, or None (with an error diagnostic) when it must not load.

    Rejected: an unsafe path, a name breaking ``name_rule``, and under ``strict_limits`` a
    name past the Agent Skills limit or a missing description. Text fields are
    sanitised (keeping what ``text_rule`` keeps); a missing description falls back to the
    body (with a warning).
    """
    if problem := path_problem(path):
        return None, [Diagnostic(path, None, f"{problem}; skill skipped", "error")]
    declared = (fields.pop("name", "") or "").strip()
    name = rule_name(declared or default_name, name_rule)
    diagnostics = _clean(fields, path, line_of, text_rule)
    name_line = line_of("name") if declared else None
    if problem := name_problem(name, name_rule, text_rule):
        origin = "" if declared else " (from the folder or file name)"
        diagnostics.append(
            Diagnostic(path, name_line, f"{problem}{origin}; skill skipped", "error")
        )
        return None, diagnostics
    description = fields.pop("description", "").strip()
    if not description and strict_limits:
        diagnostics.append(
            Diagnostic(path, line_of("description"), "missing field `description`", "error")
        )
        return None, diagnostics
    if not description:
        description = loaded_fallback_description(body, name)
        if warn_missing_description:
            diagnostics.append(
                Diagnostic(
                    path,
                    line_of("description"),
                    f"missing description; using {description!r}",
                    "warning",
                    "description",
                )
            )
    if strict_limits:
        # A loader this strict does not read the field: such skills are listed and invocable.
        fields.pop("disable_model_invocation", None)
    limits = [
        _limit(name, MAX_NAME_CHARS, "name", strict_limits, path, name_line),
        # A longer description still loads (a listing may cut it): a warning only.
        _limit(
            description, MAX_DESCRIPTION_CHARS, "description", False, path, line_of("description")
        ),
    ]
    diagnostics.extend(d for d in limits if d is not None)
    if any(d is not None and d.severity == "error" for d in limits):
        return None, diagnostics
    skill = Skill(name=name, description=description, source=source, path=path, body=body, **fields)
    return skill, diagnostics


_LISTED = ("name", "description", "when_to_use")
_FOLDED = str.maketrans("", "", "\n\t\u200b")
"""What folding removes without a safety reason: line breaks, tabs and the zero-width space
(no agent's trim removes U+200B, so a value ending in one is listed with it)."""


def listed_texts(
    meta: Mapping[Any, Any], skill: Skill, rule: TextRule = "printable"
) -> dict[str, str]:
    """The text fields of ``meta`` as read, where they differ from ``skill``'s sanitised ones
    only by what folding a line removes (line breaks, edge and repeated spaces, zero-width
    spaces): nothing the sanitiser took out for safety (escapes, control characters) comes
    back."""
    found: dict[str, str] = {}
    for key, value in meta.items():
        attr = FIELDS.get(fold_key(str(key)), ("", None))[0]
        if attr not in _LISTED or not isinstance(value, str):
            continue
        loaded = getattr(skill, attr)
        if value == loaded or not _safe(value):
            continue
        if clean_line(value, rule).text == loaded:
            found[attr] = value
    return found


def _safe(text: str) -> bool:
    return text.translate(_FOLDED).isprintable()


def safe_texts(texts: Mapping[str, str]) -> dict[str, str]:
    """The texts a reader lists exactly so, but for those holding anything a listing must not
    carry unsanitised (escapes, control characters, bidirectional controls, tag characters):
    those stay as loaded. Spaces of any kind and other format characters (zero-width space,
    word joiner, soft hyphen) are safe."""
    return {attr: text for attr, text in texts.items() if _safe(text) or _invisible_only(text)}


def _invisible_only(text: str) -> bool:
    return all(c.isprintable() or c in "\n\t" or _harmless(c) for c in text)


def _harmless(char: str) -> bool:
    kind = unicodedata.category(char)
    if kind == "Cf":
        return char not in _BIDI and not 0xE0000 <= ord(char) <= 0xE007F
    return kind == "Zs"
