"""Codex rollouts: ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`` (older ones ``.jsonl.zst``).

Line shapes follow Codex's protocol crate (openai/codex ``codex-rs/protocol/src/protocol.rs``:
``RolloutLine`` flattens a ``timestamp`` beside ``RolloutItem``, an enum tagged
``type``/``payload`` with ``session_meta``, ``response_item``, ``compacted``,
``turn_context`` and ``event_msg``; ``SessionMeta`` holds ``id``, ``timestamp``, ``cwd``,
``originator`` and ``cli_version``; ``UserMessageEvent`` holds ``message``) and its models
(``ResponseItem`` ``message`` {role, content}, ``function_call`` {name, arguments (JSON
text), call_id}, ``function_call_output`` {call_id, output}, ``local_shell_call``).

A user turn is logged twice, as a user ``response_item`` message and as an ``event_msg``
``user_message``; the event is the one taken, since user-role messages also carry context
Codex adds itself (environment, AGENTS.md, injected skill bodies). Rollouts of ``codex exec``
0.169.0 log no such event: a typed user message (not Codex's context) opens the turn itself
once the model's first item shows no event is coming. The skills listing the model was shown
is a developer ``response_item`` message holding the ``<skills_instructions>`` block; Codex
records it before the user's message of the turn it was sent with, so it is yielded once
the turn before has closed.

The listing block holds, under ``### Available skills``, one ``- NAME: TEXT (file: PATH)``
line per skill, ``- NAME: (file: PATH)`` once the budget left it no description characters;
a description over the loader's limit ends with ``...``.

Which skill a turn invoked follows Codex's own rules, applied to the recorded calls.

Explicit use (openai/codex ``codex-rs/core/src/skills/injection.rs``): the user writes
``$skill-name`` (name characters ``[A-Za-z0-9_-]``; ``$PATH``, ``$HOME`` and other common
environment variables are not mentions) or ``[$skill-name](path)``. Codex then injects the
skill's body as a user-role message ``<skill>\\n<name>NAME</name>\\n<path>…`` into the
rollout, which is the record this importer trusts; bare ``$name`` mentions count only for
names a given catalog holds.

Implicit use (``codex-rs/core/src/skills/invocation_utils.rs``): a ``shell_command``
(``command``) or ``exec_command`` (``cmd``) call whose command, split like a shell would,
either runs a script (runner ``python``, ``python3``, ``bash``, ``zsh``, ``sh``, ``node``,
``deno``, ``ruby``, ``perl`` or ``pwsh``, first non-option argument ending in ``.py``,
``.sh``, ``.js``, ``.ts``, ``.rb``, ``.pl`` or ``.ps1``) that lies under a skill's
``scripts/`` directory, or reads (``cat``, ``sed``, ``head``, ``tail``, ``less``, ``more``,
``bat``, ``awk``) a skill's ``SKILL.md``. Codex matches the paths of the skills it loaded;
the log does not list them, so here the skill is the directory holding ``scripts/`` or
``SKILL.md`` (mapped to its catalog name when a catalog is given). Relative paths are
taken from the call's ``workdir``, else the turn's ``cwd``, as Codex does. Older rollouts ran
commands through a ``shell`` tool with an argument list such as ``["bash", "-lc", "…"]``;
the script inside is read the same way.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, NamedTuple

from skillbench.listing._codex import CLOSE_TAG, OPEN_TAG
from skillbench.transcripts._formats import DEFAULT_OPTIONS, LOG_PARSERS, ImportOptions
from skillbench.transcripts._json_lines import FirstSeen, json_objects
from skillbench.transcripts._turns import Turns
from skillbench.transcripts._types import (
    Item,
    LabelSource,
    ListedEntry,
    LogProblem,
    RecordedListing,
    SkillUse,
)

KNOWN_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
_CONTEXT = ("<", "# AGENTS.md")
"""Openings of user-role messages Codex writes itself (environment, instructions, skills)."""
SHELL_TOOLS = {"shell_command": "command", "exec_command": "cmd", "shell": "command"}
"""Function-call tools that run a command, and the argument holding it."""
_SKILLS = "### Available skills"
_HOW_TO = "### How to use skills"
_ENTRY = re.compile(
    r"^- (?P<head>[^\n]+?): (?P<text>[^\n]*?) ?"
    r"\((?:file|executor package|cloud package|custom resource): [^\n]*\)$",
    re.MULTILINE,
)

RUNNERS = frozenset(
    {"python", "python3", "bash", "zsh", "sh", "node", "deno", "ruby", "perl", "pwsh"}
)
SCRIPT_EXTENSIONS = (".py", ".sh", ".js", ".ts", ".rb", ".pl", ".ps1")
READERS = frozenset({"cat", "sed", "head", "tail", "less", "more", "bat", "awk"})
COMMON_ENV_VARS = frozenset(
    {"PATH", "HOME", "USER", "SHELL", "PWD", "TMPDIR", "TEMP", "TMP", "LANG", "TERM"}
    | {"XDG_CONFIG_HOME"}
)
_MENTION = re.compile(r"\$([A-Za-z0-9_-]+)")
_INJECTED = re.compile(r"^\s*<skill>\s*<name>([^<]+)</name>")
_SHELLS = frozenset({"bash", "sh", "zsh"})


def parse_codex(
    path: Path,
    redact: Callable[[str], str],
    options: ImportOptions = DEFAULT_OPTIONS,
    counts: dict[str, int] | None = None,
) -> Iterator[Item]:
    """Requests, invocations and diagnostics of one Codex rollout, in file order.

    Args:
        path: a ``.jsonl`` or ``.jsonl.zst`` rollout.
        redact: applied to every string that leaves the importer.
        options: its ``known`` skill names, when given: ``$name`` mentions of them count as
            explicit use and nothing else becomes a label; its ``by_dir`` (skill directory
            name → skill name) names the skills of implicit use.
        counts: per-session turn counters shared across the files of one import.
    """
    known, by_dir = options.known, options.by_dir
    turns = Turns(redact, {} if counts is None else counts)
    seen = FirstSeen()
    name = str(path)
    session = path.name.split(".")[0]
    version: str | None = None
    cwd: str | None = None  # the turn's working directory (turn_context)
    held: list[tuple[str, LabelSource]] = []  # uses seen before their turn's user_message
    shown: RecordedListing | None = None  # a listing for the turn whose user_message is due
    typed: _Typed | None = None  # the user's message as a response_item, its event not yet

    def use(skill: str, by: LabelSource, at: Any) -> Iterator[Item]:
        if known is not None and skill not in known:
            return
        if typed is not None or turns.open_text is None:
            held.append((skill, by))
        elif turns.invoked(skill, by) and isinstance(at, str):
            yield SkillUse(skill, at)

    def begin(text: str, at: Any, where: str) -> Iterator[Item]:
        """Open the turn of the user's message ``text``."""
        nonlocal shown, typed
        typed = None
        yield from turns.start(session, text, at if isinstance(at, str) else None, where)
        if shown is not None:
            yield shown
            shown = None
        early, held[:] = list(held), []
        for skill, by in early:
            yield from use(skill, by, at)
        if known is not None:
            for skill in mentions(text):
                yield from use(skill, "user_invoked", at)

    for item in json_objects(path):
        if isinstance(item, LogProblem):
            yield item
            continue
        number, line = item
        kind, payload, at = line.get("type"), line.get("payload"), line.get("timestamp")
        if kind not in KNOWN_TYPES:
            if seen.first("type", str(kind)):
                yield LogProblem(name, number, "note", f"unknown line type {kind!r} ignored")
            continue
        if not isinstance(payload, dict):
            yield LogProblem(name, number, "skipped", f"{kind} line without a payload object")
            continue
        if kind == "session_meta":
            session = str(payload.get("id") or session)
            cli = payload.get("cli_version")
            if isinstance(cli, str):
                if version is not None and cli != version and seen.first("version", cli):
                    yield LogProblem(
                        name, number, "note", f"session mixes versions {version} and {cli}"
                    )
                version = version or cli
        elif kind == "event_msg" and payload.get("type") == "user_message":
            text = payload.get("message")
            if isinstance(text, str) and text.strip():
                yield from begin(text.strip(), at, f"{name}:{number}")
        elif kind == "turn_context":
            cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else cwd
        elif kind == "response_item":
            listing = _listing(payload, session, at, f"{name}:{number}", redact)
            said = _typed_text(payload)
            if typed is not None and (said or listing or _from_model(payload)):
                yield from begin(*typed)  # no event came: releases that log none
            shown = listing or shown
            if said is not None and said != turns.open_text:
                typed = _Typed(said, at, f"{name}:{number}")
            for skill, by in _response_skills(payload, by_dir, cwd):
                yield from use(skill, by, at)
    if typed is not None:
        yield from begin(*typed)
    yield from turns.close()


class _Typed(NamedTuple):
    """A user's message seen as a ``response_item``, waiting for its ``user_message`` event."""

    text: str
    at: Any
    where: str


def _from_model(payload: dict[str, Any]) -> bool:
    """Whether this item is the model's (an answer, reasoning, a call): the turn is under
    way, so the user's message before it will get no event of its own."""
    return payload.get("type") != "message" or payload.get("role") == "assistant"


def _listing(
    payload: dict[str, Any], session: str, at: Any, where: str, redact: Callable[[str], str]
) -> RecordedListing | None:
    """The skills listing a developer message carries, if it is one."""
    if payload.get("type") != "message" or payload.get("role") != "developer":
        return None
    for part in payload.get("content") or ():
        text = part.get("text") if isinstance(part, dict) else None
        block = skills_block(text) if isinstance(text, str) else None
        if block is None:
            continue
        entries = listed_entries(block)
        return RecordedListing(
            session=session,
            at=at if isinstance(at, str) else None,
            initial=True,
            names=tuple(e.head for e in entries),
            content=redact(block),
            source=where,
            entries=entries,
            omits=bool(entries) and not any(e.text for e in entries),
        )
    return None


def _typed_text(payload: dict[str, Any]) -> str | None:
    """The text of a user-role message the user typed (not context Codex added), if it is one."""
    if payload.get("type") != "message" or payload.get("role") != "user":
        return None
    texts = [
        b["text"]
        for b in payload.get("content") or ()
        if isinstance(b, dict) and isinstance(b.get("text"), str)
    ]
    text = "\n".join(texts).strip()
    if not text or text.startswith(_CONTEXT):
        return None
    return text


def _response_skills(
    payload: dict[str, Any], by_dir: Mapping[str, str] | None, cwd: str | None
) -> Iterator[tuple[str, LabelSource]]:
    kind = payload.get("type")
    if kind == "message" and payload.get("role") == "user":
        for block in payload.get("content") or ():
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                skill = injected_skill(block["text"])
                if skill:
                    yield skill, "user_invoked"
        return
    call = _command(payload)
    if call is not None:
        skill = implicit_skill(call.command, by_dir, call.workdir or cwd)
        if skill:
            yield skill, "model_invoked"


class _Call(NamedTuple):
    command: str | list[str]
    workdir: str | None


def _command(payload: dict[str, Any]) -> _Call | None:
    """The command a shell tool call ran and its ``workdir``, if this item is one."""
    if payload.get("type") == "local_shell_call":
        action = payload.get("action")
        command = action.get("command") if isinstance(action, dict) else None
        workdir = action.get("working_directory") if isinstance(action, dict) else None
        if isinstance(command, list):
            return _Call(command, workdir if isinstance(workdir, str) else None)
        return None
    field = SHELL_TOOLS.get(str(payload.get("name")))
    if payload.get("type") != "function_call" or field is None:
        return None
    try:
        args = json.loads(str(payload.get("arguments") or ""))
    except json.JSONDecodeError:
        return None
    if not isinstance(args, dict):
        return None
    command, workdir = args.get(field), args.get("workdir")
    workdir = workdir if isinstance(workdir, str) else None
    if isinstance(command, str) or (
        isinstance(command, list) and all(isinstance(c, str) for c in command)
    ):
        return _Call(command, workdir)
    return None


def skills_block(text: str) -> str | None:
    """The ``<skills_instructions>`` block of a developer message, tags included."""
    start = text.find(OPEN_TAG)
    end = text.find(CLOSE_TAG, start)
    if start < 0 or end < 0:
        return None
    return text[start : end + len(CLOSE_TAG)]


def listed_entries(block: str) -> tuple[ListedEntry, ...]:
    """The entries under ``### Available skills`` of a skills block."""
    _, _, skills = block.partition(_SKILLS)
    skills = skills.split(_HOW_TO)[0]
    return tuple(
        ListedEntry(m.group("head").strip(), m.group("text").strip())
        for m in _ENTRY.finditer(skills)
    )


def mentions(text: str) -> list[str]:
    """``$name`` mentions in ``text`` (linked ones included), common env vars left out."""
    names = (m.group(1) for m in _MENTION.finditer(text))
    return list(dict.fromkeys(n for n in names if n.upper() not in COMMON_ENV_VARS))


def injected_skill(text: str) -> str | None:
    """The skill whose body this user-role message injects, if it is such a message."""
    found = _INJECTED.match(text)
    return found.group(1).strip() if found else None


def implicit_skill(
    command: str | list[str],
    by_dir: Mapping[str, str] | None = None,
    workdir: str | None = None,
) -> str | None:
    """The skill a shell command runs a script of or reads the ``SKILL.md`` of, if any.

    Args:
        command: the command line, or an argument list (``["bash", "-lc", "…"]``).
        by_dir: skill directory name → skill name, from a catalog; when given, only its
            skills are recognised.
        workdir: the directory the command ran in; relative paths are taken from it.
    """
    joined = command if isinstance(command, str) else " ".join(command)
    joined += f" {workdir or ''}"
    if "SKILL.md" not in joined and "scripts" not in joined:
        return None  # neither rule can match: skip the costly shell split
    tokens = _split(command) if isinstance(command, str) else [str(t) for t in command]
    tokens = _unwrap(tokens)
    if not tokens:
        return None
    program = _basename(tokens[0]).lower().removesuffix(".exe")
    directory = None
    if program in RUNNERS:
        directory = _script_dir(tokens[1:], workdir)
    if directory is None and program in READERS:
        directory = _doc_dir(tokens[1:], workdir)
    if directory is None:
        return None
    if by_dir is None:
        return directory
    return by_dir.get(directory)


def _split(command: str) -> list[str]:
    """Shell words of ``command``; without quotes or escapes that is a whitespace split."""
    if not any(c in command for c in "'\"\\"):
        return command.split()
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _unwrap(tokens: list[str]) -> list[str]:
    """The script of ``bash -lc SCRIPT`` (and ``sh -c``, ``zsh -c``), split; else ``tokens``."""
    if len(tokens) >= 3 and _basename(tokens[0]) in _SHELLS and tokens[1] in ("-c", "-lc"):
        return _split(tokens[2])
    return tokens


def _basename(token: str) -> str:
    return PureWindowsPath(token).name if "\\" in token else PurePosixPath(token).name


def _parts(token: str, workdir: str | None) -> tuple[str, ...]:
    """Path components of ``token``, from ``workdir`` when it is relative."""
    path = PureWindowsPath(token) if "\\" in token else PurePosixPath(token)
    if workdir and not path.is_absolute() and not token.startswith("~"):
        return _parts(workdir, None) + path.parts
    return path.parts


def _script_dir(args: list[str], workdir: str | None) -> str | None:
    script = next((a for a in args if a != "--" and not a.startswith("-")), None)
    if script is None or not script.lower().endswith(SCRIPT_EXTENSIONS):
        return None
    parts = _parts(script, workdir)[:-1]
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] == "scripts":
            return parts[i - 1]
    return None


def _doc_dir(args: list[str], workdir: str | None) -> str | None:
    for arg in args:
        if arg.startswith("-"):
            continue
        parts = _parts(arg, workdir)
        if len(parts) >= 2 and parts[-1] == "SKILL.md":
            return parts[-2]
    return None


LOG_PARSERS.register("codex")(parse_codex)
