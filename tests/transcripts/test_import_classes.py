"""Why an expected skill did or did not fire, per turn, from the listing the session recorded.

The logs are built line by line in ``class_logs``; the skills, texts and listings are our
own. Every expected class was worked out by hand from the listing the turn's session had
shown by the end of the turn, the skills invoked in it and the catalog.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from transcript_helpers import read_jsonl

from skillbench.cli._main import main
from tests.transcripts.class_logs import (
    CC_LABELS,
    cc_listing,
    cc_user,
    claude_code_logs,
    codex_log,
    write_catalog,
    write_labels,
    write_lines,
)


def classes(out: Path) -> dict[str, list[tuple[str, str, str, str | None]]]:
    """Request id → (skill, class, listed, reason) of each expected skill."""
    return {
        row["id"]: [(c["skill"], c["class"], c["listed"], c.get("reason")) for c in row["classes"]]
        for row in read_jsonl(out / "requests.jsonl")
        if "classes" in row
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
        # the sub-agent takes its session's listing, where deploy is in full
        "cc-a/agent-x#0": [("deploy", "listed_not_invoked", "full", None)],
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


def test_a_description_holding_a_home_path_is_compared_before_redaction(tmp_path: Path) -> None:
    skills = tmp_path / "skills" / "backup"
    skills.mkdir(parents=True)
    text = "Copy /home/alice/notes to the backup disk."
    (skills / "SKILL.md").write_text(f"---\nname: backup\ndescription: {text}\n---\nGo.\n")
    log = write_lines(
        tmp_path / "logs" / "s.jsonl",
        [
            cc_user("s", 0, "back up my notes"),
            cc_listing("s", 0, f"- backup: {text}", initial=True),
        ],
    )
    labels = write_labels(tmp_path / "labels.jsonl", {"s#0": ["backup"]})
    out = tmp_path / "out"
    args = ["import", "claude-code", str(log), "-o", str(out), "--labels", str(labels), "-q"]
    assert main([*args, "--skills", f"user={skills.parent}"]) == 0
    # the recorded listing is written redacted (~/notes), yet the entry is the catalog's text
    assert classes(out) == {"s#0": [("backup", "listed_not_invoked", "full", None)]}
    assert "~/notes" in (out / "listings.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("events", [True, False], ids=["with-events", "exec-0.169-no-events"])
def test_codex_turns_are_classified_from_the_skills_block(events: bool, tmp_path: Path) -> None:
    codex_log(tmp_path / "sessions", events)
    skills = write_catalog(tmp_path / "skills")
    labels = write_labels(
        tmp_path / "labels.jsonl",
        {
            "cx-9#2": ["lint"],
            "cx-9#3": ["notes"],
            "cx-9#4": ["deploy"],
            "cx-9#5": ["migrate", "notes"],
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
        # judged by the first block (notes still cut, not yet omitted): the second block
        # is recorded before the next turn's message and belongs to it
        "cx-9#5": [
            ("migrate", "not_listed", "absent", "paths"),
            ("notes", "listed_cut", "cut", None),
        ],
        # a block of bare names is Codex's last resort, which omits what still does not fit
        "cx-9#6": [("format", "not_listed", "absent", "budget")],
        "cx-9#7": [("deploy", "listed_cut", "name_only", None)],
    }
    texts = [r["text"] for r in read_jsonl(out / "requests.jsonl")]
    assert texts[0] == "Use $review on this diff" and len(texts) == 8


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
    rows = list(csv.DictReader((out / "classes.csv").read_text(encoding="utf-8").splitlines()))
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
    } == {"turns": "4", "invoked_by_model": "1", "listed_not_invoked": "2", "listing_unknown": "1"}
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
