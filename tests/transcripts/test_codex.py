"""Importing Codex rollouts: turns from ``user_message`` events, explicit and implicit use.

Expected values were worked out by hand from the fixture rollouts. Their shapes follow
openai/codex ``codex-rs/protocol/src/protocol.rs`` (``RolloutItem`` tagged
``type``/``payload``; ``SessionMeta`` {id, timestamp, cwd, originator, cli_version};
``UserMessageEvent`` {message}); the skill rules are Codex's own:
``codex-rs/core/src/skills/injection.rs`` (``$name`` mentions, the injected
``<skill><name>…`` message, ``$HOME`` and other common variables are not mentions) and
``codex-rs/core/src/skills/invocation_utils.rs`` (a runner with a script under a skill's
``scripts/``, or a reader with its ``SKILL.md``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from transcript_helpers import compress, read_jsonl

from skillbench.cli._main import main
from skillbench.transcripts._codex import implicit_skill, mentions

ROLLOUT = "codex/sessions/2026/11/02/rollout-2026-11-02T10-00-00-cx-1.jsonl"


def _sessions(fixtures: Path, tmp_path: Path) -> Path:
    """The fixture sessions tree plus the older rollout, compressed as Codex keeps it."""
    root = tmp_path / "sessions"
    new = root / "2026/11/02" / Path(ROLLOUT).name
    new.parent.mkdir(parents=True)
    new.write_bytes((fixtures / ROLLOUT).read_bytes())
    compress(
        fixtures / "codex/rollout-old.jsonl",
        root / "2025/06/01/rollout-2025-06-01T09-00-00-cx-0.jsonl.zst",
    )
    return root


def test_requests_from_plain_and_compressed_rollouts(
    fixtures: Path, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "out"
    code = main(["import", "codex", str(_sessions(fixtures, tmp_path)), "-o", str(out)])
    assert code == 1  # the event_msg line without a payload was skipped
    rows = read_jsonl(out / "requests.jsonl")
    got = [(r["id"], r["text"], r["expected"], r["label_source"], r["at"]) for r in rows]
    assert got == [
        (
            "cx-0#0",
            "commit my staged work with a good message",
            ["git-commit"],
            "model_invoked",  # `bash -lc "cat …/git-commit/SKILL.md"`
            "2025-06-01T09:00:02.000Z",
        ),
        ("cx-0#1", "now push it", None, "none", "2025-06-01T09:05:02.000Z"),
        (
            "cx-1#0",
            "Use $pdf-merge to combine the two reports",
            ["pdf-merge"],
            "user_invoked",  # the injected <skill> message; the script run is the same skill
            "2026-11-02T10:00:01.200Z",
        ),
        (
            "cx-1#1",
            "summarise the weather for Oslo",
            ["weather"],
            "model_invoked",  # exec_command `sed -n 1,80p …/weather/SKILL.md`
            "2026-11-02T10:10:00.100Z",
        ),
        ("cx-1#2", "thanks, that's all for $HOME today", None, "none", "2026-11-02T10:15:00.000Z"),
    ]
    assert not (out / "listings.jsonl").exists()
    usage = (out / "usage.json").read_text()
    assert usage.count("2026-11-02T10:00:01.300Z") == 1  # one use per turn, not two
    err = capsys.readouterr().err
    assert ".jsonl.zst:4: note: session mixes versions 0.20.0 and 0.21.0" in err
    assert f"{Path(ROLLOUT).name}:15: skipped: event_msg line without a payload object" in err
    assert f"{Path(ROLLOUT).name}:16: note: unknown line type 'ghost_snapshot'" in err


def test_corrupt_and_cut_zst_files_are_reported_and_the_rest_imported(
    fixtures: Path, tmp_path: Path, capsys
) -> None:
    root = _sessions(fixtures, tmp_path)
    (root / "2025/06/02").mkdir(parents=True)
    (root / "2025/06/02/rollout-garbage.jsonl.zst").write_bytes(b"\x28\xb5\x2f\xfd not zstd")
    whole = (root / "2025/06/01/rollout-2025-06-01T09-00-00-cx-0.jsonl.zst").read_bytes()
    (root / "2025/06/02/rollout-cut.jsonl.zst").write_bytes(whole[: len(whole) // 2])
    out = tmp_path / "out"
    assert main(["import", "codex", str(root), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "rollout-garbage.jsonl.zst:1: skipped: corrupt zstandard data" in err
    assert "rollout-cut.jsonl.zst:1: skipped: zstandard stream ends mid-frame" in err
    ids = [r["id"] for r in read_jsonl(out / "requests.jsonl")]
    assert {"cx-0#0", "cx-1#0", "cx-1#1", "cx-1#2"} <= set(ids)


def test_catalog_limits_labels_and_counts_bare_mentions(fixtures: Path, tmp_path: Path) -> None:
    log = tmp_path / "rollout.jsonl"
    log.write_text(
        '{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s"}}\n'
        '{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg",'
        '"payload":{"type":"user_message","message":"try $weather and $nothing-here"}}\n'
        '{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":'
        '{"type":"function_call","name":"shell_command","arguments":'
        '"{\\"command\\":\\"bash tools/other/scripts/run.sh\\"}","call_id":"c"}}\n'
    )
    out = tmp_path / "out"
    skills = str(fixtures / "skills")
    assert main(["import", "codex", str(log), "-o", str(out), "-q", "--skills", skills]) == 0
    [row] = read_jsonl(out / "requests.jsonl")
    assert (row["expected"], row["label_source"]) == (["weather"], "user_invoked")


@pytest.mark.parametrize(
    ("command", "skill"),
    [
        ("python3 -u /x/skills/gh-comments/scripts/fetch.py --pr 3", "gh-comments"),
        ("python3 -c 'print(1)'", None),  # no script argument
        ("node scripts/build.js", None),  # nothing holds this scripts/
        ("cat /tmp/skill-test/SKILL.md | head", "skill-test"),
        ("grep name /tmp/skill-test/SKILL.md", None),  # grep is not one of Codex's readers
        ("vim /tmp/skill-test/SKILL.md", None),
        (["bash", "-lc", "sed -n 1,5p ./skills/plan/SKILL.md"], "plan"),
        ("/usr/bin/python3.exe /sk/pdf/scripts/m.py", "pdf"),  # Codex drops a .exe suffix
        ("perl /sk/pdf/scripts/notes.txt", None),  # not a script extension
    ],
)
def test_implicit_rules(command: str | list[str], skill: str | None) -> None:
    assert implicit_skill(command) == skill


def test_relative_paths_are_taken_from_the_working_directory() -> None:
    # the cases of Codex's own tests: a script relative to the skill root, and a SKILL.md
    assert implicit_skill("python3 scripts/fetch.py", workdir="/tmp/skill-test") == "skill-test"
    assert implicit_skill("cat SKILL.md", workdir="/x/skills/plan") == "plan"
    assert implicit_skill("python3 fetch.py", workdir="/tmp/skill-test/scripts") == "skill-test"
    assert implicit_skill("cat SKILL.md") is None  # no directory to take it from


def test_mentions_follow_codex_name_rules() -> None:
    assert mentions("use $alpha.skill and $beta_extra, not $PATH or $Home") == [
        "alpha",
        "beta_extra",
    ]
    assert mentions("[$beta](/tmp/beta/SKILL.md) $beta") == ["beta"]


def test_skill_injected_before_its_turn_event_goes_to_that_turn(tmp_path: Path) -> None:
    def line(at: int, kind: str, payload: dict) -> str:
        return json.dumps(
            {"timestamp": f"2026-01-01T00:00:{at:02d}Z", "type": kind, "payload": payload}
        )

    def said(text: str) -> dict:
        return {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": text}],
        }

    log = tmp_path / "rollout.jsonl"
    log.write_text(
        "\n".join(
            [
                line(0, "session_meta", {"id": "s"}),
                line(1, "event_msg", {"type": "user_message", "message": "first"}),
                line(2, "response_item", said("second $weather")),
                line(3, "response_item", said("<skill>\n<name>weather</name>\n<path>/w</path>")),
                line(4, "event_msg", {"type": "user_message", "message": "second $weather"}),
            ]
        )
        + "\n"
    )
    out = tmp_path / "out"
    assert main(["import", "codex", str(log), "-o", str(out), "-q"]) == 0
    rows = read_jsonl(out / "requests.jsonl")
    assert [(r["id"], r["expected"], r["label_source"]) for r in rows] == [
        ("s#0", None, "none"),
        ("s#1", ["weather"], "user_invoked"),
    ]


def test_local_shell_call_in_the_turn_directory(tmp_path: Path) -> None:
    lines = [
        {"type": "session_meta", "payload": {"id": "s"}},
        {"type": "turn_context", "payload": {"cwd": "/home/u/.codex/skills/weather"}},
        {"type": "event_msg", "payload": {"type": "user_message", "message": "rain in Oslo?"}},
        {
            "type": "response_item",
            "payload": {
                "type": "local_shell_call",
                "call_id": "c",
                "status": "completed",
                "action": {"type": "exec", "command": ["cat", "SKILL.md"]},
            },
        },
    ]
    log = tmp_path / "rollout.jsonl"
    log.write_text(
        "".join(json.dumps({"timestamp": "2026-01-01T00:00:00Z", **x}) + "\n" for x in lines)
    )
    out = tmp_path / "out"
    assert main(["import", "codex", str(log), "-o", str(out), "-q"]) == 0
    [row] = read_jsonl(out / "requests.jsonl")
    assert (row["expected"], row["label_source"]) == (["weather"], "model_invoked")
