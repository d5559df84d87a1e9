"""``skillbench fidelity``: recorded Claude Code listings against skillbench's rendering.

The recorded listings are in the shape Claude Code logs them (an attachment of type
``skill_listing`` whose ``content`` holds ``- name: description`` lines, as read by
daaain/claude-code-log), imported or written by hand. Byte offsets are counted by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

from skillbench.cli._main import main
from skillbench.transcripts import compare_listing


def test_recorded_listing_matches(fixtures: Path, tmp_path: Path, capsys) -> None:
    main(["import", "claude-code", str(fixtures / "claude"), "-o", str(tmp_path), "-q"])
    capsys.readouterr()
    listings = str(tmp_path / "listings.jsonl")
    assert main(["fidelity", str(fixtures / "skills"), "--listings", listings]) == 0
    out = capsys.readouterr().out
    assert "sess-1111.jsonl:2 (session sess-1111): 0 differences (163 bytes)" in out


def test_differing_listing_reports_exact_lines(fixtures: Path, capsys) -> None:
    listings = str(fixtures / "listings-differ.jsonl")
    args = ["fidelity", str(fixtures / "skills"), "--listings", listings, "--format", "json"]
    assert main(args) == 100
    first, third = json.loads(capsys.readouterr().out)  # the delta listing is skipped
    # "- git-commit: Write a commit message for staged changes.\n" is 57 bytes and
    # "- pdf-merge: Merge several PDF files into " 42 more: they part at byte 99.
    assert first["first_difference"] == 99
    assert first["lines"] == [
        "--- recorded",
        "+++ skillbench",
        "@@ -2 +2 @@",
        "-- pdf-merge: Merge several PDF files into a single document.",
        "+- pdf-merge: Merge several PDF files into one document.",
    ]
    assert (first["identical"], first["missing"]) == (False, [])
    assert third["missing"] == ["ghost"]
    assert third["lines"] == [
        "--- recorded",
        "+++ skillbench",
        "@@ -1 +0,0 @@",
        "-- ghost: Haunts the repo.",
    ]


def test_deltas_on_request(fixtures: Path, capsys) -> None:
    listings = str(fixtures / "listings-differ.jsonl")
    args = ["fidelity", str(fixtures / "skills"), "--listings", listings, "--deltas"]
    assert main([*args, "--format", "json"]) == 100
    assert len(json.loads(capsys.readouterr().out)) == 3


def test_wrapper_and_header_are_not_compared_when_not_recorded() -> None:
    rendered = (
        "<system-reminder>\nThe following skills are available for use with the Skill tool:\n"
        "\n- a: one\n- b: two\n</system-reminder>"
    )
    assert compare_listing("- a: one\n- b: two", rendered).first_difference is None
    # "- a: one\n" is 9 bytes, "- b: tw" 7 more: "i" against "o" at byte 16
    assert compare_listing("- a: one\n- b: twin", rendered).first_difference == 16
