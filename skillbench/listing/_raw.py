"""Text as an agent lists it: the front matter value as its reader returned it, and XML
escaping the way agents write it.

The catalog folds every text field to one safe line; an agent that lists the value as its
YAML parser returns it (line breaks and edge spaces kept) is rendered from
``Skill.listed``, which holds such a value only where folding alone tells it from the loaded
one.
"""

from __future__ import annotations

import re

from skillbench.catalog import Skill


def listed_text(skill: Skill, key: str, loaded: str) -> str:
    """``key``'s text as the agent's reader returned it (else the loaded one)."""
    return skill.listed.get(key, loaded)


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
