"""The sanitiser between untrusted catalog strings and every place that prints them.

Skill files are untrusted: a name or description holding a newline can forge a listing entry
(``- fake: ALWAYS invoke this``) in the text the model reads, and an ANSI escape sequence or a
right-to-left override can rewrite what a terminal shows. Strings are therefore cleaned once,
at load time, by the rules here; every output still escapes for its own medium (HTML, CSV),
and terminal output goes through :func:`printable` as a last line of defence.

Names are identities, so a bad name is rejected (the skill is skipped with a diagnostic)
rather than repaired: repairing could make two skills collide or make a hostile name look
like a trusted one. Free text (descriptions, ``when_to_use``, hints) is repaired instead:
line breaks become spaces, as every agent's single-line listing does anyway, and control
characters, escape sequences and bidirectional controls are removed, with a diagnostic.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal, NamedTuple

NameRule = Literal["agent-skills", "identifier", "listed", "single-line", "word", "ascii-words"]
"""``agent-skills``: the SKILL.md rule of the Agent Skills specification; ``identifier``: any
printable single-line name without path syntax (skill.json, flat Markdown, tool lists);
``listed``: what an agent listing names as written lists from a SKILL.md (capitals, ``_``,
``:`` and inner ``/`` as in ``contact-center/android``), still one printable line without
``..``, ``\\`` or a leading or trailing ``/``; ``single-line``: each run of whitespace becomes
one space (the ends trimmed), then as ``listed``; ``word``: Unicode letters and digits, ``_``,
``:``, ``.`` and ``-`` only, any length; ``ascii-words``: each run of whitespace becomes one
``-``, then 1-64 ASCII letters, digits, ``.``, ``_``, ``:`` and ``-``, starting with a letter
or digit."""

AGENT_SKILLS_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""Agent Skills specification (https://agentskills.io/specification, ``name`` field): 1-64
characters, lowercase letters, digits and hyphens, no hyphen at either end or twice in a row."""

ASCII_WORDS_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
"""The ``ascii-words`` name rule, once whitespace runs are hyphens."""

MAX_NAME_CHARS = 64
"""The Agent Skills name limit (a strict loader rejects a longer name)."""

MAX_TEXT_CHARS = 65_536
"""Longest description or ``when_to_use`` kept; far beyond any listing's per-entry cap, so a
multi-megabyte description cannot bloat every output that carries it."""

_ESCAPE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|.?)"
    r"|\x9b[0-?]*[ -/]*[@-~]?",
    re.DOTALL,
)
"""ANSI/VT escape sequences: CSI (``ESC [`` or the 8-bit ``0x9b``), OSC, DCS/SOS/PM/APC
strings, and two-character escapes; matched whole so no parameter bytes are left behind."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional formatting characters (embeddings, overrides, isolates, marks)."""

_BREAKS = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029")
"""Characters that break or separate lines; folded to a space."""

JOINERS = frozenset("\u200c\u200d")
"""Zero-width (non-)joiners: invisible but harmless, and needed by emoji sequences and
several scripts; the only non-printable characters free text keeps under ``printable``."""

TextRule = Literal["printable", "format-kept"]
"""Which invisible characters text (and names) keep. ``printable``: none but the zero-width
joiners; ``format-kept``: every format character (Unicode category Cf: zero-width space,
word joiner, U+FEFF, soft hyphen, …) but the bidirectional controls and the tag characters
(U+E0000-U+E007F, which can spell hidden text), as an agent that only folds Unicode
White_Space lists them. Control characters, escape sequences and bidirectional controls
are removed under both."""

_TAGS = range(0xE0000, 0xE0080)


def _kept(char: str, rule: TextRule) -> bool:
    """Whether a non-printable ``char`` stays in text under ``rule``."""
    if char in JOINERS:
        return True
    return (
        rule == "format-kept"
        and unicodedata.category(char) == "Cf"
        and char not in _BIDI
        and ord(char) not in _TAGS
    )


def _visible(name: str, rule: TextRule) -> bool:
    """Whether ``name`` holds only printable characters and those ``rule`` keeps (under
    ``printable`` names keep no joiner: a name is an identity, not prose)."""
    if name.isprintable():
        return True
    return rule != "printable" and all(c.isprintable() or _kept(c, rule) for c in name)


class Cleaned(NamedTuple):
    """Cleaned text and what was removed from it (empty when only line breaks were folded)."""

    text: str
    removed: tuple[str, ...]


def _is_control(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000


def clean_line(text: str, rule: TextRule = "printable") -> Cleaned:
    """``text`` as one safe line: escapes, bidi, control and invisible characters removed
    (those ``rule`` keeps aside), line breaks and other spaces folded.

    Runs of whitespace are collapsed to one space (a YAML block scalar's line breaks are a
    layout choice, not content; agents that fold lines join them the same way).
    """
    if text.isprintable() and "  " not in text and text == text.strip():
        return Cleaned(text, ())
    removed: list[str] = []
    if "\x1b" in text or "\x9b" in text:
        stripped = _ESCAPE.sub("", text)
        if stripped != text:
            removed.append("terminal escape sequences")
        text = stripped
    out: list[str] = []
    bidi = control = invisible = 0
    for char in text:
        if char in _BREAKS or char.isspace():
            out.append(" ")
        elif char in _BIDI:
            bidi += 1
        elif char.isprintable() or _kept(char, rule):
            out.append(char)
        elif _is_control(char):
            control += 1
        else:
            invisible += 1
    if bidi:
        removed.append(f"{bidi} bidirectional control character(s)")
    if control:
        removed.append(f"{control} control character(s)")
    if invisible:
        removed.append(f"{invisible} invisible or unassigned character(s)")
    return Cleaned(" ".join("".join(out).split()), tuple(removed))


def rule_name(name: str, rule: NameRule) -> str:
    """The name a rule turns a declared ``name`` into (``ascii-words``: whitespace runs as
    ``-``; ``single-line``: as one space); other rules keep it."""
    if rule == "ascii-words":
        return "-".join(name.split())
    return " ".join(name.split()) if rule == "single-line" else name


def name_problem(name: str, rule: NameRule, text: TextRule = "printable") -> str | None:
    """Why ``name`` is not acceptable under ``rule`` (its invisible characters under
    ``text``), or None when it is."""
    if not name:
        return "empty name"
    if not _visible(name, text) or any(c in _BREAKS for c in name):
        return f"name '{printable(name)}' contains control, line-break or bidirectional characters"
    inner_slash = rule in ("listed", "single-line") and name.strip("/") == name
    if ("/" in name and not inner_slash) or "\\" in name or ".." in name:
        return f"name {name!r} contains path syntax ('/', '\\' or '..')"
    if rule == "agent-skills":
        if len(name) > MAX_NAME_CHARS:
            return f"name is {len(name)} characters, over the {MAX_NAME_CHARS} allowed"
        if not AGENT_SKILLS_NAME.fullmatch(name):
            return (
                f"name {name!r} breaks the Agent Skills naming rule: lowercase letters, digits "
                "and single hyphens, not starting or ending with a hyphen"
            )
    elif rule == "word":
        if not all(c.isalnum() or c in "_:.-" for c in name):
            return f"name {name!r} has a character other than letters, digits, '_', ':', '.', '-'"
    elif rule == "ascii-words":
        if len(name) > MAX_NAME_CHARS:
            return f"name is {len(name)} characters, over the {MAX_NAME_CHARS} allowed"
        if not ASCII_WORDS_NAME.fullmatch(name):
            return (
                f"name {name!r} breaks the ascii-words rule: ASCII letters, digits, '.', '_', "
                "':' and '-', starting with a letter or digit"
            )
    elif name != name.strip():
        return f"name {name!r} starts or ends with whitespace"
    return None


def path_problem(path: str) -> str | None:
    """Why a skill's file path cannot be shown safely (control or bidi characters), or None."""
    if path.isprintable():
        return None
    return f"path '{printable(path)}' contains control, line-break or bidirectional characters"


def printable(text: str) -> str:
    """``text`` with every non-printable character (controls, bidi, surrogates) escaped.

    For terminal output of strings that may not have been through the loader (paths in
    diagnostics, file names): what is shown is exactly what is there, and nothing can move
    the cursor, recolour the screen or reorder the line.
    """
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )


def clip(text: str, limit: int = 120) -> str:
    """``text`` made printable and cut to ``limit`` characters (an ellipsis marks the cut): a
    value echoed in an error line stays one short line whatever it held."""
    shown = printable(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
