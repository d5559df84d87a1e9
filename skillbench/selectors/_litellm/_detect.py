"""Reading a whole model turn: every tool call, the first one that names a skill decides.

Tools harnesses reject trigger on the *first* call only; a model that first
reads a file and then invokes the right skill did trigger it. So every call is parsed and
recorded, and the decision is the first well-formed call that names a skill. A name that was
not listed stays verbatim (the engine classifies it ``hallucinated``); a skill call whose
arguments cannot be read, or a tool call without a function name (the model meant to call a
tool, which one cannot be known), is ``malformed`` unless a later call names a skill
properly; a turn with no tool call is an abstention.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any

from skillbench.listing import Listing
from skillbench.selectors._litellm._prompt import Trigger
from skillbench.selectors._types import Decision, DecisionKind

READ_TOOLS = frozenset({"read_file", "read", "open_file", "view"})
PATH_KEYS = ("path", "file_path", "file", "filename")


def _message(response: Mapping[str, Any]) -> Mapping[str, Any]:
    """The first choice's message; anything not shaped like one reads as an empty turn."""
    choices = response.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, Mapping) else None
    return message if isinstance(message, Mapping) else {}


def _arguments(raw: Any) -> tuple[Any, str | None]:
    """Parsed arguments and an error; providers send a JSON string, some a ready object.

    Raw newlines and other control characters inside strings are accepted (local servers
    emit them); the text as received stays in the call's record.
    """
    if isinstance(raw, Mapping):
        return dict(raw), None
    try:
        return json.loads(raw or "{}", strict=False), None
    except (TypeError, ValueError) as exc:
        return None, f"invalid JSON arguments: {exc}"


def _skill_name(args: Any) -> tuple[str | None, str | None]:
    if not isinstance(args, Mapping):
        return None, "arguments are not an object"
    name = args.get("skill")
    if not isinstance(name, str) or not name.strip().lstrip("/"):
        return None, "missing 'skill' argument"
    return name.strip().lstrip("/"), None


ROOT_ALIAS = re.compile(r"^- `(r\d+)` = `([^`\n]+)`$", re.MULTILINE)
"""A row of a listing's roots table (for an agent that shortens paths): a short path
``rN/…`` stands for ``ROOT/…``."""


def _norm(path: str) -> str:
    return os.path.normpath(path.strip()).replace(os.sep, "/")


class _Paths:
    """The catalog's SKILL.md paths in a listing (shown or not), for file-read triggers: as
    the listing shows them and as they are on disk."""

    def __init__(self, listing: Listing) -> None:
        self.by_path = {
            _norm(p): e.skill.name for e in listing.entries for p in (e.path, e.skill.path) if p
        }
        self.aliases = dict(ROOT_ALIAS.findall(listing.text))

    def skill_at(self, path: str) -> str | None:
        """The skill whose file is ``path``; relative paths match an absolute path's tail.

        A ``SKILL.md`` that is no catalog skill's file comes back as the path itself, so the
        engine counts it as a hallucinated skill; other files are not skill reads.
        """
        alias, _, rest = path.strip().partition("/")
        p = _norm(f"{self.aliases[alias]}/{rest}" if alias in self.aliases and rest else path)
        if p in self.by_path:
            return self.by_path[p]
        tail = "/" + p.lstrip("./")
        for known, name in self.by_path.items():
            if known.endswith(tail):
                return name
        return p if os.path.basename(p).lower() == "skill.md" else None


SKILL_FILE = re.compile(r"[^\s'\"`()\[\]{},;]*SKILL\.md")
"""A SKILL.md path inside a command or code (an agent with no skill tool reads files through
its shell tool)."""


def _file_read(name: str, args: Any, paths: _Paths) -> tuple[str | None, str | None]:
    if name.lower() not in READ_TOOLS:
        return _command_read(args, paths), None
    if not isinstance(args, Mapping):
        return None, "arguments are not an object"
    path = next((args[k] for k in PATH_KEYS if isinstance(args.get(k), str)), None)
    if path is None:
        return None, "missing 'path' argument"
    return paths.skill_at(path), None


def _command_read(args: Any, paths: _Paths) -> str | None:
    """The listed skill whose SKILL.md a shell or code tool call reads, if any: only a path
    the catalog knows counts (a command merely naming some SKILL.md is no trigger)."""
    for path in SKILL_FILE.findall(json.dumps(args, ensure_ascii=False)):
        found = paths.skill_at(path.replace("\\/", "/"))
        if found is not None and found in paths.by_path.values():
            return found
    return None


def detect(response: Mapping[str, Any], listing: Listing, trigger: Trigger) -> Decision:
    """The decision a whole response amounts to; ``detail`` lists every call."""
    message = _message(response)
    paths = _Paths(listing) if trigger == "file_read" else None
    calls: list[dict[str, Any]] = []
    chosen: str | None = None
    decided: int | None = None
    problem: str | None = None
    tool_calls = message.get("tool_calls")
    for i, call in enumerate(tool_calls if isinstance(tool_calls, list) else []):
        fn = call.get("function") if isinstance(call, Mapping) else None
        fn = fn if isinstance(fn, Mapping) else {}
        name = str(fn.get("name") or "")
        raw = fn.get("arguments")
        args, error = _arguments(raw)
        record: dict[str, Any] = {"name": name, "arguments": raw}
        skill: str | None = None
        if not name:
            error, relevant = "tool call without a function name", True
        elif paths is not None:
            if error is None:
                skill, error = _file_read(name, args, paths)
            relevant = name.lower() in READ_TOOLS and (error is None or "SKILL.md" in str(raw))
        else:
            relevant = name.lower() == "skill"
            if relevant and error is None:
                skill, error = _skill_name(args)
        if skill is not None:
            record["skill"] = skill
        if error is not None:
            record["error"] = error
            if relevant and problem is None:
                problem = error
        calls.append(record)
        if skill is not None and decided is None:
            chosen, decided = skill, i
    kind: DecisionKind = "invoke" if chosen else ("malformed" if problem else "abstain")
    detail: dict[str, Any] = {"calls": calls, "trigger_call": decided}
    if message.get("content"):
        detail["text"] = message["content"]
    if kind == "malformed":
        detail["error"] = problem
    return Decision(kind, chosen, detail=detail)
