"""Importing Claude Code logs: one request per typed user turn, labels, listings, usage.

The expected values below were worked out by hand from the fixture log
(fixtures/claude/projects/-home-alice-proj/sess-1111.jsonl and its sub-agent file), whose
shapes follow public readers of the format: daaain/claude-code-log
(``claude_code_log/factories/attachment_factory.py``: ``attachment`` lines and their
``attachment.type``), alicoding/claude-parser (``docs/JSONL-STRUCTURE.md``: line fields,
``isMeta``, ``isSidechain``) and DRMacIver/claude-reliability
(``notes/transcript-format.md``: ``tool_result`` blocks in user lines).
"""

from __future__ import annotations

import json
from pathlib import Path

from transcript_helpers import read_jsonl

from skillbench.cli._main import main
from skillbench.usage import UsageTracker

MAIN = "claude/projects/-home-alice-proj/sess-1111.jsonl"


def test_requests_labels_sessions_and_times(fixtures: Path, tmp_path: Path, capsys) -> None:
    code = main(["import", "claude-code", str(fixtures / "claude"), "-o", str(tmp_path)])
    rows = read_jsonl(tmp_path / "requests.jsonl")
    assert code == 1  # one truncated line was skipped: a failure, though the rest imported
    got = [
        (r["id"], r["text"], r["expected"], r["label_source"], r["at"], r.get("tags")) for r in rows
    ]
    assert got == [
        (
            "sess-1111#0",
            "Please merge a.pdf and b.pdf into one file, mail it to [EMAIL]",
            ["pdf-merge"],
            "model_invoked",
            "2026-11-02T09:00:05.000Z",
            None,
        ),
        (
            "sess-1111#1",
            "What's the weather in Paris? My key is [SECRET]",
            None,
            "none",
            "2026-11-02T09:05:00.000Z",
            None,
        ),
        (
            "sess-1111#2",
            "/git-commit fix typo in README",
            ["git-commit"],
            "user_invoked",
            "2026-11-02T09:10:00.000Z",
            None,
        ),
        (
            "sess-1111#3",
            "commit what I changed in ~/proj/src please",
            ["git-commit"],
            "model_invoked",
            "2026-11-02T09:20:00.000Z",
            None,
        ),
        ("sess-1111#4", "/clear", ["clear"], "user_invoked", "2026-11-02T09:30:00.000Z", None),
        (
            "sess-1111/agent-a1#0",
            "Look up the weather forecast for Paris tomorrow",
            ["weather"],
            "model_invoked",
            "2026-11-02T09:05:01.000Z",
            ["subagent"],
        ),
    ]
    assert [(r["session"], r["turn"]) for r in rows][-2:] == [
        ("sess-1111", 4),
        ("sess-1111/agent-a1", 0),
    ]
    assert rows[2]["args"] == "fix typo in README"
    assert rows[0]["log"].endswith(f"{MAIN}:3")
    err = capsys.readouterr().err
    assert f"{MAIN}:13: skipped: invalid JSON" in err
    assert f"{MAIN}:14: note: unknown line type 'mystery-line'" in err
    assert f"{MAIN}:15: note: session mixes versions 2.1.0 and 2.1.3" in err


def test_catalog_drops_builtin_commands(fixtures: Path, tmp_path: Path) -> None:
    main(
        [
            "import",
            "claude-code",
            str(fixtures / "claude"),
            "-o",
            str(tmp_path),
            "-q",
            "--skills",
            str(fixtures / "skills"),
        ]
    )
    ids = [r["id"] for r in read_jsonl(tmp_path / "requests.jsonl")]
    assert "sess-1111#4" not in ids  # /clear is not a skill of the catalog
    assert len(ids) == 5


def test_usage_history_loads_as_render_and_replay_expect(fixtures: Path, tmp_path: Path) -> None:
    main(["import", "claude-code", str(fixtures / "claude"), "-o", str(tmp_path), "-q"])
    usage = json.loads((tmp_path / "usage.json").read_text())
    # one use per turn, at the time of the call (model) or of the typed command (user)
    assert usage["git-commit"] == {
        "events": ["2026-11-02T09:10:00.000Z", "2026-11-02T09:20:06.000Z"]
    }
    assert usage["pdf-merge"] == {"events": ["2026-11-02T09:00:09.000Z"]}
    tracker = UsageTracker.load(tmp_path / "usage.json", "inf")
    assert tracker.count("git-commit") == 2 and tracker.count("weather") == 1


def test_recorded_listing(fixtures: Path, tmp_path: Path) -> None:
    main(["import", "claude-code", str(fixtures / MAIN), "-o", str(tmp_path), "-q"])
    [listing] = read_jsonl(tmp_path / "listings.jsonl")
    assert listing["initial"] is True
    assert listing["names"] == ["git-commit", "pdf-merge", "weather"]
    assert listing["content"].splitlines()[1] == (
        "- pdf-merge: Merge several PDF files into one document."
    )
    assert listing["session"] == "sess-1111"


def test_keep_paths(fixtures: Path, tmp_path: Path) -> None:
    main(["import", "claude-code", str(fixtures / MAIN), "-o", str(tmp_path), "-q", "--keep-paths"])
    texts = [r["text"] for r in read_jsonl(tmp_path / "requests.jsonl")]
    assert "commit what I changed in /home/alice/proj/src please" in texts
    assert any("[EMAIL]" in t for t in texts)  # secrets and addresses still go


def test_clean_log_exits_zero(tmp_path: Path) -> None:
    log = tmp_path / "s.jsonl"
    log.write_text(
        json.dumps(
            {
                "type": "user",
                "sessionId": "s",
                "timestamp": "2026-01-01T00:00:00Z",
                "message": {"role": "user", "content": "hello"},
            }
        )
        + "\n"
    )
    assert main(["import", "claude-code", str(log), "-o", str(tmp_path / "out"), "-q"]) == 0
    [row] = read_jsonl(tmp_path / "out" / "requests.jsonl")
    assert (row["id"], row["expected"], row["label_source"]) == ("s#0", None, "none")


def test_render_reads_the_usage_history(fixtures: Path, tmp_path: Path, capsys) -> None:
    main(["import", "claude-code", str(fixtures / "claude"), "-o", str(tmp_path), "-q"])
    capsys.readouterr()
    usage = str(tmp_path / "usage.json")
    args = ["render", str(fixtures / "skills"), "--profile", "claude-code", "--usage", usage]
    assert main([*args, "--now", "2026-11-02T10:00:00Z", "--format", "json"]) == 0
    listed = [s["name"] for s in json.loads(capsys.readouterr().out)["skills"]]
    assert listed[0] == "git-commit"  # used twice, the most recent use an hour earlier


def test_no_logs_is_an_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["import", "claude-code", str(tmp_path / "empty"), "-o", str(tmp_path / "o")]) == 1
    assert "error: no claude-code log files under" in capsys.readouterr().err


def _say(role: str, content: object, minute: int) -> str:
    return json.dumps(
        {
            "type": role,
            "sessionId": "s",
            "timestamp": f"2026-01-01T00:{minute:02d}:00Z",
            "message": {"role": role, "content": content},
        }
    )


def _skill_call(*names: str) -> list[dict[str, object]]:
    return [
        {"type": "tool_use", "id": f"t{i}", "name": "Skill", "input": {"skill": name}}
        for i, name in enumerate(names)
    ]


def test_a_call_outside_the_skills_is_named_and_its_turn_is_no_negative(
    tmp_path: Path, capsys
) -> None:
    skills = tmp_path / "skills" / "review"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text("---\nname: review\ndescription: Review a diff.\n---\nBody.\n")
    log = tmp_path / "s.jsonl"
    lines = [
        _say("user", "make me a slide deck", 0),  # line 1: turn 0, only pptx
        _say("assistant", _skill_call("pptx"), 1),
        _say("user", "review my diff", 2),  # line 3: turn 1, review
        _say("assistant", _skill_call("review"), 3),
        _say("user", "hello", 4),  # line 5: turn 2, nothing: a real negative
        _say("user", "review it and make slides", 6),  # line 6: turn 3, review and pptx
        _say("assistant", _skill_call("review", "pptx"), 7),
    ]
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    argv = ["import", "claude-code", str(log), "-o", str(out), "--skills", str(skills.parent)]
    assert main([*argv, "--format", "json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert counts["outside_skills"] == {"pptx": 2} and counts["turns_left_out"] == 1
    requests = {r["id"]: r["expected"] for r in read_jsonl(out / "requests.jsonl")}
    assert requests == {"s#1": ["review"], "s#2": None, "s#3": ["review"]}  # s#0 left out
    notes = (out / "diagnostics.txt").read_text()
    assert (
        f"{log}:1: note: session s turn 0: the model called `pptx`, not among --skills; "
        "turn left out of the requests (it is no negative)"
    ) in notes
    assert f"{log}:6: note: session s turn 3: the model called `pptx`" in notes
    assert main([*argv, "-o", str(tmp_path / "again")]) == 0
    err = capsys.readouterr().err
    assert "model calls to skills outside --skills: pptx (2); 1 turn that called nothing " in err
