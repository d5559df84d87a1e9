"""Claude Code session logs: ``~/.claude/projects/<project>/<session>.jsonl``.

Line shapes follow public readers of the format (daaain/claude-code-log,
``claude_code_log/factories/attachment_factory.py`` and ``user_factory.py``;
alicoding/claude-parser, ``docs/JSONL-STRUCTURE.md``; DRMacIver/claude-reliability,
``notes/transcript-format.md``):

- every line has ``type`` (user, assistant, system, summary, attachment, …), and message
  lines ``uuid``, ``parentUuid``, ``timestamp``, ``sessionId``, ``version``, ``isSidechain``
  and ``message`` {role, content (a string or a list of blocks)};
- a model-invoked skill is an assistant ``tool_use`` block named ``Skill`` whose
  ``input.skill`` names it;
- a user-typed slash command is a user message holding ``<command-name>/x</command-name>``
  (with ``<command-args>``); its expansion follows as an ``isMeta`` line;
- tool results come back as user lines whose content is ``tool_result`` blocks, and shell
  or command output as ``<local-command-stdout>``/``<bash-stdout>`` text: none is a request;
- an ``attachment`` whose ``attachment.type`` is ``skill_listing`` holds the listing shown to
  the model (``content``), its ``names`` and ``isInitial`` (False: a later delta).

Sub-agents write their own files under ``<session>/subagents/agent-<id>.jsonl``; their
first user message is the task the main agent gave them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

from skillbench.transcripts._formats import DEFAULT_OPTIONS, LOG_PARSERS, ImportOptions
from skillbench.transcripts._json_lines import FirstSeen, json_objects
from skillbench.transcripts._turns import Turns
from skillbench.transcripts._types import Item, ListedEntry, LogProblem, RecordedListing, SkillUse

KNOWN_TYPES = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "attachment",
        "file-history-snapshot",
        "queue-operation",
        "progress",
        "custom-title",
        "permission-mode",
    }
)
"""Line types read or knowingly ignored; any other is reported once per file."""

_ENTRY = re.compile(r"^(?=- [^\s:]+(?: \([^)\n]*\))?(?::|$))", re.MULTILINE)
"""Where an entry of a ``skill_listing`` content starts: ``- NAME: TEXT``, a name-only
``- NAME``, ``- folder (name): TEXT`` when the frontmatter name differs from the folder,
``- plugin:skill: TEXT`` for a plugin's skill; TEXT may run over several lines, and a
description cut at the per-entry cap ends with ``…``."""
_COMMAND = re.compile(r"<command-name>/?([^<\s]+)</command-name>")
_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)
_NOT_TYPED = (
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<bash-input>",
    "[Request interrupted by user",
)
"""Openings of user-role text the user did not type as a request."""


def parse_claude_code(
    path: Path,
    redact: Callable[[str], str],
    options: ImportOptions = DEFAULT_OPTIONS,
    counts: dict[str, int] | None = None,
) -> Iterator[Item]:
    """Requests, listings, invocations and diagnostics of one Claude Code log, in file order.

    Args:
        path: a session file or a sub-agent file.
        redact: applied to every string that leaves the importer.
        options: its ``known`` skill names, when given: commands naming anything else
            (``/clear``, ``/model`` …) are not requests and only known skills become labels.
        counts: per-session turn counters shared across the files of one import.
    """
    known = options.known
    turns = Turns(redact, {} if counts is None else counts)
    seen = FirstSeen()
    versions: dict[str, str] = {}
    agent = path.stem if path.parent.name == "subagents" else None
    name = str(path)
    for item in json_objects(path):
        if isinstance(item, LogProblem):
            yield item
            continue
        number, line = item
        where = f"{name}:{number}"
        kind = str(line.get("type"))
        session = _session(line, agent, path)
        version = line.get("version")
        if isinstance(version, str):
            first = versions.setdefault(session, version)
            if first != version and seen.first("version", session, version):
                yield LogProblem(
                    name, number, "note", f"session mixes versions {first} and {version}"
                )
        attachment = line.get("attachment")
        if isinstance(attachment, dict):
            if attachment.get("type") == "skill_listing":
                yield _listing(attachment, line, session, where, redact)
            continue
        if kind not in KNOWN_TYPES:
            if seen.first("type", kind):
                yield LogProblem(name, number, "note", f"unknown line type {kind!r} ignored")
            continue
        at = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
        message = line.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if kind == "user" and not line.get("isMeta") and not line.get("isCompactSummary"):
            yield from _user(content, turns, session, at, where, known)
        elif kind == "assistant" and isinstance(content, list):
            for skill in _skill_calls(content):
                if known is not None and skill not in known:
                    turns.outside(skill)
                    continue
                if turns.invoked(skill, "model_invoked") and at:
                    yield SkillUse(skill, at)
    yield from turns.close()


def _session(line: dict[str, Any], agent: str | None, path: Path) -> str:
    session = line.get("sessionId")
    base = session if isinstance(session, str) and session else path.stem
    if agent is None and line.get("isSidechain") is True and isinstance(line.get("agentId"), str):
        agent = f"agent-{line['agentId']}"
    return f"{base}/{agent}" if agent else base


def _user(
    content: Any,
    turns: Turns,
    session: str,
    at: str | None,
    where: str,
    known: Collection[str] | None,
) -> Iterator[Item]:
    text = _text(content)
    if text is None or not text.strip() or text.lstrip().startswith(_NOT_TYPED):
        return
    tags = ("subagent",) if "/" in session else ()
    command = _COMMAND.search(text) if text.lstrip().startswith("<command-") else None
    if command is None:
        yield from turns.start(session, text.strip(), at, where, tags=tags)
        return
    skill = command.group(1)
    if known is not None and skill not in known:
        return
    found = _ARGS.search(text)
    args = found.group(1).strip() if found else ""
    typed = f"/{skill} {args}".rstrip()
    yield from turns.start(session, typed, at, where, args=args or None, tags=tags)
    if turns.invoked(skill, "user_invoked") and at:
        yield SkillUse(skill, at)


def _text(content: Any) -> str | None:
    """The typed text of a user message; None when it only carries tool results."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    parts = [
        str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text"
    ]
    return "\n".join(parts) if parts else None


def _skill_calls(content: list[Any]) -> Iterator[str]:
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_use":
            continue
        args = block.get("input")
        if block.get("name") == "Skill" and isinstance(args, dict):
            skill = args.get("skill")
            if isinstance(skill, str) and skill.strip():
                yield skill.strip().lstrip("/")


def _listing(
    attachment: dict[str, Any],
    line: dict[str, Any],
    session: str,
    where: str,
    redact: Callable[[str], str],
) -> RecordedListing:
    names = attachment.get("names")
    at = line.get("timestamp")
    content = str(attachment.get("content") or "")
    return RecordedListing(
        session=session,
        at=at if isinstance(at, str) else None,
        initial=attachment.get("isInitial") is not False,
        names=tuple(str(n) for n in names) if isinstance(names, list) else (),
        content=redact(content),
        source=where,
        entries=listed_entries(content),
    )


def listed_entries(content: str) -> tuple[ListedEntry, ...]:
    """The entries of a ``skill_listing`` content (the entry lines alone)."""
    entries = []
    for chunk in _ENTRY.split(content):
        if not chunk.startswith("- "):
            continue
        head, sep, text = chunk[2:].partition(": ")
        entries.append(ListedEntry(head.strip(), text.strip() if sep else ""))
    return tuple(entries)


LOG_PARSERS.register("claude-code")(parse_claude_code)
