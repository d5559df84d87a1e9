"""Hand-built Claude Code and Codex session logs for the turn-class tests (our own text).

The lines take the shapes the importers read (see test_claude_code.py and test_codex.py for
the public sources of those shapes). ``claude_code_logs`` and ``codex_log`` write one log
each whose turns, with ``CC_LABELS`` / ``CODEX_LABELS``, cover every class.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CATALOG = {
    "deploy": ("Ship the current build to the staging servers.", ""),
    "lint": ("Run the linters and fix what they report.", ""),
    "notes": ("Write release notes from the merged changes since the last tag.", ""),
    "review": ("Review a patch for bugs and missing tests.", ""),
    "format": ("Format the source files with the project's formatter.", ""),
    "migrate": ("Write a database migration for a schema change.", "paths: [db/**]\n"),
    "rotate": ("Rotate the API keys of a service.", "disable-model-invocation: true\n"),
}


def write_catalog(root: Path) -> Path:
    for name, (description, extra) in CATALOG.items():
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n{extra}---\nDo it.\n",
            encoding="utf-8",
        )
    return root


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def write_labels(path: Path, labels: dict[str, list[str]]) -> Path:
    lines = [{"id": rid, "expected": expected} for rid, expected in labels.items()]
    return write_lines(path, lines)


# --- Claude Code ---------------------------------------------------------------------------


def cc(session: str, minute: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "uuid": f"{session}-{minute}-{kind}",
        "sessionId": session,
        "timestamp": f"2026-11-05T10:{minute:02d}:00.000Z",
        "version": "2.1.328",
        "isSidechain": False,
        **fields,
    }


def cc_user(session: str, minute: int, text: str) -> dict[str, Any]:
    return cc(session, minute, "user", message={"role": "user", "content": text})


def cc_skill_call(session: str, minute: int, skill: str) -> dict[str, Any]:
    block = {"type": "tool_use", "id": f"t{minute}", "name": "Skill", "input": {"skill": skill}}
    return cc(session, minute, "assistant", message={"role": "assistant", "content": [block]})


def cc_listing(session: str, minute: int, content: str, *, initial: bool) -> dict[str, Any]:
    names = [line[2:].split(":")[0] for line in content.splitlines()]
    attachment = {
        "type": "skill_listing",
        "isInitial": initial,
        "skillCount": len(names),
        "names": names,
        "content": content,
    }
    return cc(session, minute, "attachment", attachment=attachment)


CC_LISTING = "\n".join(
    [
        "- deploy: Ship the current build to the staging servers.",
        "- lint",
        "- notes: Write release notes from the merged…",
        "- review: Review a patch for bugs",
    ]
)
"""deploy in full; lint by name only; notes cut at the entry cap (the ellipsis); review cut
too, though only the catalog can tell (its description goes on: "and missing tests.")."""


def claude_code_logs(root: Path) -> Path:
    s = "cc-a"
    write_lines(
        root / "proj" / "cc-a.jsonl",
        [
            cc_user(s, 0, "ship it"),
            cc_listing(s, 0, CC_LISTING, initial=True),
            cc_skill_call(s, 1, "deploy"),
            cc_user(s, 2, "<command-name>/review</command-name><command-args></command-args>"),
            cc_user(s, 3, "clean up the warnings"),
            cc_user(s, 4, "draft the notes for 2.0"),
            cc_user(s, 5, "put the build on staging"),
            cc_user(s, 6, "add an index to the orders table"),
            cc_user(s, 7, "the stripe key leaked, replace it"),
            cc_user(s, 8, "format the code"),
            cc_user(s, 9, "and format the tests too"),
            cc_listing(
                s,
                9,
                "- format: Format the source files with the project's formatter.",
                initial=False,
            ),
            cc_user(s, 10, "look over my patch"),
            cc_user(s, 11, "what time is it"),
        ],
    )
    # a sub-agent records no listing of its own: it is judged by its session's
    task = {**cc_user(s, 12, "deploy the fix to staging"), "isSidechain": True}
    write_lines(root / "proj" / "cc-a" / "subagents" / "agent-x.jsonl", [task])
    write_lines(root / "proj" / "cc-b.jsonl", [cc_user("cc-b", 0, "ship the build again")])
    return root


CC_LABELS = {
    "cc-a#2": ["lint"],
    "cc-a#3": ["notes"],
    "cc-a#4": ["deploy"],
    "cc-a#5": ["migrate"],
    "cc-a#6": ["rotate"],
    "cc-a#7": ["format"],
    "cc-a#8": ["format"],
    "cc-a#9": ["review"],
    "cc-a/agent-x#0": ["deploy"],
    "cc-b#0": ["deploy"],
}


# --- Codex ---------------------------------------------------------------------------------

ROOT = "/home/bob/.agents/skills"


def cx(second: int, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": f"2026-11-06T09:00:{second:02d}.000Z", "type": kind, "payload": payload}


def cx_message(second: int, role: str, text: str) -> dict[str, Any]:
    part = {"type": "input_text", "text": text}
    return cx(second, "response_item", {"type": "message", "role": role, "content": [part]})


def cx_turn(second: int, text: str, events: bool) -> list[dict[str, Any]]:
    """The user's message as a response item and (unless ``events`` is off, as ``codex
    exec`` 0.169.0 writes it) as a ``user_message`` event."""
    event = {"type": "user_message", "message": text, "images": []}
    said = cx_message(second, "user", text)
    return [said, cx(second, "event_msg", event)] if events else [said]


def cx_shell(second: int, command: str) -> dict[str, Any]:
    arguments = json.dumps({"command": command, "workdir": "/home/bob/repo"})
    call = {"type": "function_call", "name": "shell_command", "arguments": arguments}
    return cx(second, "response_item", {**call, "call_id": f"c{second}"})


def cx_skills(entries: list[str]) -> dict[str, Any]:
    block = "\n".join(
        [
            "<skills_instructions>",
            "## Skills",
            "Our own opening sentence.",
            "### Skill roots",
            f"- `r0` = `{ROOT}`",
            "### Available skills",
            *entries,
            "### How to use skills",
            "- framing: a line of the how-to text that is no skill (file: r0/none/SKILL.md)",
            "</skills_instructions>",
        ]
    )
    return cx_message(0, "developer", block)


def codex_log(root: Path, events: bool = True) -> Path:
    first = [
        "- deploy: Ship the current build to the staging servers. (file: r0/deploy/SKILL.md)",
        "- lint: (file: r0/lint/SKILL.md)",
        "- notes: Write release notes (file: r0/notes/SKILL.md)",
        "- review: Review a patch for bugs and missing tests. (file: r0/review/SKILL.md)",
    ]
    # later, over budget: every description removed and format left out
    second = [
        "- deploy: (file: r0/deploy/SKILL.md)",
        "- lint: (file: r0/lint/SKILL.md)",
    ]
    injected = f"<skill>\n<name>review</name>\n<path>{ROOT}/review/SKILL.md</path>\nbody</skill>"
    meta = {"id": "cx-9", "cwd": "/home/bob/repo", "cli_version": "0.169.0"}
    return write_lines(
        root / "2026" / "11" / "06" / "rollout-cx-9.jsonl",
        [
            cx(0, "session_meta", meta),
            cx_skills(first),
            *cx_turn(1, "Use $review on this diff", events),
            cx_message(1, "user", injected),
            *cx_turn(2, "ship the build", events),
            cx_shell(3, f"cat {ROOT}/deploy/SKILL.md"),
            *cx_turn(4, "tidy the warnings", events),
            *cx_turn(5, "notes for 2.0 please", events),
            *cx_turn(6, "put it on staging", events),
            *cx_turn(7, "add a column to users", events),
            cx_skills(second),
            *cx_turn(8, "format everything", events),
            *cx_turn(9, "ship it now", events),
        ],
    )
