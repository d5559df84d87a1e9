"""The entries of a listing as an agent recorded it in its session log.

Claude Code records the entry lines alone (``skill_listing`` content): ``- NAME: TEXT``, a
name-only ``- NAME``, ``- folder (name): TEXT`` when the frontmatter name differs from the
folder, ``- plugin:skill: TEXT`` for a plugin's skill; TEXT may run over several lines, and
a description cut at the per-entry cap ends with ``…``.

Codex records its whole skills block as a developer message of the rollout, between
``<skills_instructions>`` tags: under ``### Available skills`` one ``- NAME: TEXT (file:
PATH)`` line per skill, ``- NAME: (file: PATH)`` once the budget left it no description
characters, and a description over the loader's limit ends with ``...``.
"""

from __future__ import annotations

import re

from skillbench.transcripts._types import ListedEntry

CODEX_OPEN = "<skills_instructions>"
CODEX_CLOSE = "</skills_instructions>"
_CODEX_SKILLS = "### Available skills"
_CODEX_HOW_TO = "### How to use skills"
_CLAUDE_ENTRY = re.compile(r"^(?=- [^\s:]+(?: \([^)\n]*\))?(?::|$))", re.MULTILINE)
_CODEX_ENTRY = re.compile(
    r"^- (?P<head>[^\n]+?): (?P<text>[^\n]*?) ?"
    r"\((?:file|executor package|cloud package|custom resource): [^\n]*\)$",
    re.MULTILINE,
)
CUT_MARKS = ("…", "...")
"""What a description cut at an agent's per-entry cap ends with (Claude Code, Codex)."""


def claude_code_entries(content: str) -> tuple[ListedEntry, ...]:
    """The entries of a Claude Code ``skill_listing`` content."""
    entries = []
    for chunk in _CLAUDE_ENTRY.split(content):
        if not chunk.startswith("- "):
            continue
        head, sep, text = chunk[2:].partition(": ")
        entries.append(ListedEntry(head.strip(), text.strip() if sep else ""))
    return tuple(entries)


def codex_block(text: str) -> str | None:
    """The ``<skills_instructions>`` block of a Codex developer message, tags included."""
    start = text.find(CODEX_OPEN)
    end = text.find(CODEX_CLOSE, start)
    if start < 0 or end < 0:
        return None
    return text[start : end + len(CODEX_CLOSE)]


def codex_entries(block: str) -> tuple[ListedEntry, ...]:
    """The entries under ``### Available skills`` of a Codex skills block."""
    _, _, skills = block.partition(_CODEX_SKILLS)
    skills = skills.split(_CODEX_HOW_TO)[0]
    return tuple(
        ListedEntry(m.group("head").strip(), m.group("text").strip())
        for m in _CODEX_ENTRY.finditer(skills)
    )


def entry_names(entry: ListedEntry) -> tuple[str, ...]:
    """The names an entry answers to: its head, and for ``folder (name)`` both parts."""
    found = re.fullmatch(r"(?P<folder>[^\s(]+) \((?P<name>[^)]+)\)", entry.head)
    return (found.group("folder"), found.group("name")) if found else (entry.head,)
