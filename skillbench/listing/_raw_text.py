"""A skill's description as agents that read the YAML value themselves send it.

skillbench's catalog keeps every text field on one safe line. Gemini CLI and GitHub Copilot
CLI send the frontmatter's value as parsed: a literal block keeps its line breaks, a folded
one its final newline. Their profiles read that value again from the skill's file.
"""

from __future__ import annotations

import os
import re

from skillbench._errors import SkillbenchError
from skillbench._io import read_text
from skillbench._yaml import parse_yaml
from skillbench.catalog import Skill

_FRONTMATTER = re.compile(r"^---\r?\n([\s\S]*?)\r?\n---")
_KEPT_BREAKS = str.maketrans("", "", "\n\t")


def raw_description(skill: Skill) -> str:
    """The frontmatter's ``description`` value untouched. The catalog's one-line form stands
    in when the file cannot be read again or the value holds anything but printable text,
    tabs and line breaks (a control character never reaches a listing)."""
    if skill.path is None or os.path.basename(skill.path) != "SKILL.md":
        return skill.description
    try:
        found = _FRONTMATTER.match(read_text(skill.path, log_note=False).text)
        meta = parse_yaml(found.group(1) + "\n", skill.path) if found else None
    except SkillbenchError:
        return skill.description
    value = meta.get("description") if isinstance(meta, dict) else None
    if isinstance(value, str) and value.translate(_KEPT_BREAKS).isprintable():
        return value
    return skill.description
