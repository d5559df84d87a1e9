"""A frontmatter value as an agent that keeps it raw reads it.

The catalog folds every text field to one safe line. Several agents list the value as their
YAML parser returns it, line breaks and edge spaces kept; their profiles take it from the
skill's file, but only when it folds to exactly what the catalog loaded and holds nothing but
printable text, tabs and line breaks, so nothing the catalog removed (escapes, control
characters) comes back.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import overload

from skillbench._errors import InputError
from skillbench._sanitize import clean_line
from skillbench._yaml import parse_yaml
from skillbench.catalog import Skill

_FRONTMATTER = re.compile(r"^---\n([\s\S]*?)\n---(?:\n|$)")
_LINE_BREAKS = str.maketrans("", "", "\n\t")


@overload
def raw_field(skill: Skill, key: str, loaded: str) -> str: ...
@overload
def raw_field(skill: Skill, key: str, loaded: None) -> None: ...
@overload
def raw_field(skill: Skill, key: str, loaded: str | None) -> str | None: ...
def raw_field(skill: Skill, key: str, loaded: str | None) -> str | None:
    """The frontmatter value ``key`` as written (line breaks and edge spaces kept), when
    the skill's file still holds what the catalog loaded; else ``loaded``.

    The YAML is read with the line break before the closing ``---``: both agents' parsers
    end a block scalar that closes the frontmatter with a break."""
    if loaded is None or skill.path is None or not skill.path.endswith("SKILL.md"):
        return loaded
    try:
        text = Path(skill.path).read_text(encoding="utf-8").lstrip("\ufeff")
    except (OSError, UnicodeDecodeError):
        return loaded
    match = _FRONTMATTER.match(text.replace("\r\n", "\n").replace("\r", "\n"))
    try:
        meta = parse_yaml(match.group(1) + "\n", skill.path) if match else None
    except InputError:  # the file changed since loading: keep what was loaded
        return loaded
    value = meta.get(key) if isinstance(meta, dict) else None
    if not isinstance(value, str) or not value.translate(_LINE_BREAKS).isprintable():
        return loaded
    return value if clean_line(value).text == loaded else loaded


_ENTITIES = {"&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'", "&#39;": "'"}
_ENTITY = re.compile("|".join([*_ENTITIES, "&amp;"]))


def unescape_xml(text: str) -> str:
    """``escape_xml`` undone (either form of the apostrophe)."""
    return _ENTITY.sub(lambda m: _ENTITIES.get(m.group(0), "&"), text)


def escape_xml(text: str, apostrophe: str = "&apos;") -> str:
    """``text`` with ``&``, ``<``, ``>``, ``"`` and ``'`` escaped (agents write ``'`` as
    ``&apos;`` or as ``&#39;``)."""
    for raw, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;")):
        text = text.replace(raw, entity)
    return text.replace("'", apostrophe)
