"""Why an expected skill did or did not fire, per turn, from the listing the session recorded.

The logs are built here line by line in the shapes the importers read (see
test_claude_code.py and test_codex.py for the sources of those shapes); the skills, texts
and listings are our own. Every expected class was worked out by hand from the listing the
turn's session had shown by the end of the turn, the skills invoked in it and the catalog.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from transcript_helpers import read_jsonl

from skillbench.cli._main import main

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


def classes(out: Path) -> dict[str, list[tuple[str, str, str, str | None]]]:
    """Request id → (skill, class, listed, reason) of each expected skill."""
    return {
        row["id"]: [(c["skill"], c["class"], c["listed"], c.get("reason")) for c in row["classes"]]
        for row in read_jsonl(out / "requests.jsonl")
        if "classes" in row
    }


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
    "cc-b#0": ["deploy"],
}


def test_claude_code_turns_are_classified_from_the_recorded_listing(tmp_path: Path) -> None:
    logs = claude_code_logs(tmp_path / "logs")
    skills = write_catalog(tmp_path / "skills")
    labels = write_labels(tmp_path / "labels.jsonl", CC_LABELS)
    out = tmp_path / "out"
    args = ["import", "claude-code", str(logs), "-o", str(out), "--skills", f"user={skills}"]
    assert main([*args, "--labels", str(labels), "-q"]) == 0
    assert classes(out) == {
        "cc-a#0": [("deploy", "invoked_by_model", "full", None)],
        "cc-a#1": [("review", "invoked_by_user", "cut", None)],
        "cc-a#2": [("lint", "listed_cut", "name_only", None)],
        "cc-a#3": [("notes", "listed_cut", "cut", None)],
        "cc-a#4": [("deploy", "listed_not_invoked", "full", None)],
        "cc-a#5": [("migrate", "not_listed", "absent", "paths")],
        "cc-a#6": [("rotate", "not_listed", "absent", "disable-model-invocation")],
        # format is in the catalog, nothing hides it, and the listing does not hold it yet
        "cc-a#7": [("format", "not_listed", "absent", "not_loaded")],
        # the delta attachment of this turn added it in full
        "cc-a#8": [("format", "listed_not_invoked", "full", None)],
        "cc-a#9": [("review", "listed_cut", "cut", None)],
        # cc-b#0: its session recorded no listing
        "cc-b#0": [("deploy", "listing_unknown", "unknown", None)],
    }


def test_without_a_catalog_only_the_log_speaks(tmp_path: Path) -> None:
    logs = claude_code_logs(tmp_path / "logs")
    labels = write_labels(tmp_path / "labels.jsonl", CC_LABELS)
    out = tmp_path / "out"
    assert (
        main(["import", "claude-code", str(logs), "-o", str(out), "--labels", str(labels), "-q"])
        == 0
    )
    got = classes(out)
    # no catalog: review's shortened text reads as full, and nothing says why migrate,
    # rotate or (before the delta) format were missing
    assert got["cc-a#9"] == [("review", "listed_not_invoked", "full", None)]
    assert got["cc-a#5"] == [("migrate", "not_listed", "absent", None)]
    assert got["cc-a#6"] == [("rotate", "not_listed", "absent", None)]
    assert got["cc-a#7"] == [("format", "not_listed", "absent", None)]
    assert got["cc-a#3"] == [("notes", "listed_cut", "cut", None)]
    # the user's typed /review is in the imported labels without any relabelling
    assert got["cc-a#1"] == [("review", "invoked_by_user", "full", None)]
    assert "cc-a#10" not in got  # no skill expected: no class


# --- Codex ---------------------------------------------------------------------------------

ROOT = "/home/bob/.agents/skills"


def cx(second: int, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": f"2026-11-06T09:00:{second:02d}.000Z", "type": kind, "payload": payload}


def cx_message(second: int, role: str, text: str) -> dict[str, Any]:
    part = {"type": "input_text", "text": text}
    return cx(second, "response_item", {"type": "message", "role": role, "content": [part]})


def cx_turn(second: int, text: str) -> list[dict[str, Any]]:
    event = {"type": "user_message", "message": text, "images": []}
    return [cx_message(second, "user", text), cx(second, "event_msg", event)]


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


def codex_log(root: Path) -> Path:
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
            *cx_turn(1, "Use $review on this diff"),
            cx_message(1, "user", injected),
            *cx_turn(2, "ship the build"),
            cx_shell(3, f"cat {ROOT}/deploy/SKILL.md"),
            *cx_turn(4, "tidy the warnings"),
            *cx_turn(5, "notes for 2.0 please"),
            *cx_turn(6, "put it on staging"),
            *cx_turn(7, "add a column to users"),
            cx_skills(second),
            *cx_turn(8, "format everything"),
            *cx_turn(9, "ship it now"),
        ],
    )


def test_codex_turns_are_classified_from_the_skills_block(tmp_path: Path) -> None:
    codex_log(tmp_path / "sessions")
    skills = write_catalog(tmp_path / "skills")
    labels = write_labels(
        tmp_path / "labels.jsonl",
        {
            "cx-9#2": ["lint"],
            "cx-9#3": ["notes"],
            "cx-9#4": ["deploy"],
            "cx-9#5": ["migrate"],
            "cx-9#6": ["format"],
            "cx-9#7": ["deploy"],
        },
    )
    out = tmp_path / "out"
    args = ["import", "codex", str(tmp_path / "sessions"), "-o", str(out)]
    assert main([*args, "--skills", f"user={skills}", "--labels", str(labels), "-q"]) == 0
    assert classes(out) == {
        "cx-9#0": [("review", "invoked_by_user", "full", None)],
        "cx-9#1": [("deploy", "invoked_by_model", "full", None)],
        "cx-9#2": [("lint", "listed_cut", "name_only", None)],
        # no ellipsis: the catalog shows the description was shortened
        "cx-9#3": [("notes", "listed_cut", "cut", None)],
        "cx-9#4": [("deploy", "listed_not_invoked", "full", None)],
        # judged by the first block: the second comes with the next turn's message
        "cx-9#5": [("migrate", "not_listed", "absent", "paths")],
        # a block of bare names is Codex's last resort, which omits what still does not fit
        "cx-9#6": [("format", "not_listed", "absent", "budget")],
        "cx-9#7": [("deploy", "listed_cut", "name_only", None)],
    }


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_the_summary_counts_the_classes(agent: str, tmp_path: Path, capsys) -> None:
    skills = write_catalog(tmp_path / "skills")
    if agent == "codex":
        logs = codex_log(tmp_path / "logs").parents[3]
        labels = {"cx-9#2": ["lint"], "cx-9#4": ["deploy"]}
        want = {
            "invoked_by_model": 1,
            "invoked_by_user": 1,
            "listed_cut": 1,
            "listed_not_invoked": 1,
        }
    else:
        logs = claude_code_logs(tmp_path / "logs")
        labels = {"cc-a#2": ["lint"], "cc-b#0": ["deploy"]}
        want = {"invoked_by_model": 1, "invoked_by_user": 1, "listed_cut": 1, "listing_unknown": 1}
    out = tmp_path / "out"
    args = ["import", agent, str(logs), "-o", str(out), "--skills", f"user={skills}"]
    code = main(
        [*args, "--labels", str(write_labels(tmp_path / "l.jsonl", labels)), "--format", "json"]
    )
    assert code == 0
    assert json.loads(capsys.readouterr().out)["classes"] == want


# --- report --------------------------------------------------------------------------------


def test_report_on_an_import_tabulates_the_classes_per_skill(tmp_path: Path, capsys) -> None:
    logs = claude_code_logs(tmp_path / "logs")
    skills = write_catalog(tmp_path / "skills")
    labels = write_labels(tmp_path / "labels.jsonl", CC_LABELS)
    out = tmp_path / "out"
    args = ["import", "claude-code", str(logs), "-o", str(out), "--skills", f"user={skills}"]
    assert main([*args, "--labels", str(labels), "-q"]) == 0
    assert main(["report", str(out)]) == 0
    assert capsys.readouterr().out.split() == [str(out / "classes.md"), str(out / "classes.csv")]
    rows = list(csv.DictReader((out / "classes.csv").open(encoding="utf-8")))
    got = {r["skill"]: r for r in rows}
    # by hand from the classes of test_claude_code_turns_are_classified_from_the_recorded_listing
    assert [r["skill"] for r in rows] == [
        "deploy",
        "format",
        "lint",
        "migrate",
        "notes",
        "review",
        "rotate",
    ]
    assert {
        k: got["deploy"][k]
        for k in ("turns", "invoked_by_model", "listed_not_invoked", "listing_unknown")
    } == {"turns": "3", "invoked_by_model": "1", "listed_not_invoked": "1", "listing_unknown": "1"}
    assert (got["format"]["not_listed"], got["format"]["listed_not_invoked"]) == ("1", "1")
    assert got["format"]["reasons"] == "not_loaded 1"
    assert (got["review"]["invoked_by_user"], got["review"]["listed_cut"]) == ("1", "1")
    never = {r["skill"] for r in rows if r["never_listed_in_full"] == "True"}
    # deploy and format were shown in full once; the rest never were
    assert never == {"lint", "migrate", "notes", "review", "rotate"}
    text = (out / "classes.md").read_text(encoding="utf-8")
    assert "| migrate | 1 | 1 | 0 | 0 | 0 | 0 | 0 | paths 1 |" in text
    assert "- review: cut 2" in text
    # the import folder still takes a new import over it, report files and all
    assert main([*args, "-q"]) == 0
    assert not (out / "classes.md").exists()


def test_report_on_an_import_names_a_bad_line(tmp_path: Path, capsys) -> None:
    out = tmp_path / "imp"
    out.mkdir()
    (out / "requests.jsonl").write_text(
        '{"id": "a#0", "classes": [{"skill": "x", "class": "listed_cut"}]}\n'
        '{"id": "a#1", "classes": [{"skill": "x", "class": "forgotten"}]}\n',
        encoding="utf-8",
    )
    assert main(["report", str(out)]) == 1
    err = capsys.readouterr().err
    assert "requests.jsonl:2" in err and "classes" in err
