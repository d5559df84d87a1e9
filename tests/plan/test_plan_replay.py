"""A trim plan judged by replay: the devtools catalog and its requests with the embedding and
lexical selectors, and ``--apply`` writing a proposed plan with backups."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.catalog import load_catalog
from skillbench.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEVTOOLS = ROOT / "datasets" / "devtools"


@pytest.mark.slow
def test_devtools_trim_costs_nothing_beyond_noise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code at 6,000 characters (the catalog's 44 listed skills need 7,949 without
    built-ins): the trimmed catalog fits, and over the 1,532 requests neither selector does
    worse beyond noise than the catalog as it is at that budget, nor than the full text with
    room for everything. The comparisons (with their intervals) are printed."""
    skills = DEVTOOLS / "skills"
    sources = [f"{kind}={skills / kind}" for kind in ("bundled", "user", "project", "plugin")]
    argv = [
        "plan",
        *sources,
        "--cwd",
        str(DEVTOOLS / "workspace"),
        "--profile",
        "claude-code",
        "-O",
        "snapshot=none",
        "--budget",
        "6000",
        "--weeks",
        "0",
        "--trim",
        "--requests",
        str(DEVTOOLS / "requests.jsonl"),
        "-o",
        str(tmp_path / "plan"),
        "-q",
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    with capsys.disabled():
        print(printed[printed.index("### Trim plan") :].split("\n\n| skill")[0])
    trim = json.loads((tmp_path / "plan" / "plan.json").read_text())["agents"][0]["trim"]
    assert trim["fits"] and trim["edits"]
    judged = {(j["selector"], j["budget"]): j for j in trim["judged"]}
    assert set(judged) == {
        (s, b) for s in ("embedding", "lexical") for b in ("target", "unlimited")
    }
    for j in judged.values():
        assert j["stats"]["requests"] == 1532
        assert j["stats"]["gain"] >= 0 or j["stats"]["p_value"] >= 0.05, j
    assert trim["proposed"]
    diff = (tmp_path / "plan" / "changes.diff").read_text()
    assert diff.count("\n+++ b/") + diff.startswith("+++ b/") == len(
        {e["path"] for e in trim["edits"]}
    )


@pytest.mark.slow
def test_apply_writes_a_proposed_trim_and_keeps_backups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skills = tmp_path / "skills"
    texts = {
        "pdf-merge": "Merge several PDF files into one document, keeping bookmarks, page labels "
        "and the outline of each input file in order.",
        "csv-clean": "Clean a CSV file: trim whitespace, fix encodings, drop duplicate rows and "
        "normalise the header names to snake case.",
    }
    for name, text in texts.items():
        (skills / name).mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {json.dumps(text)}\n---\nBody.\n", "utf-8"
        )
    requests = tmp_path / "requests.jsonl"
    rows = [
        {"id": "r1", "text": "merge these PDF files into one", "expected": "pdf-merge"},
        {"id": "r2", "text": "clean up this CSV, duplicate rows", "expected": "csv-clean"},
        {"id": "r3", "text": "combine two PDF documents", "expected": "pdf-merge"},
        {"id": "r4", "text": "fix the encoding of my CSV file", "expected": "csv-clean"},
    ]
    requests.write_text("".join(json.dumps(r) + "\n" for r in rows))
    before = {p: p.read_text() for p in skills.rglob("SKILL.md")}
    out = tmp_path / "plan"
    argv = ["plan", f"project={skills}", "--profile", "claude-code", "-O", "snapshot=none"]
    argv += ["--budget", "150", "--weeks", "0", "--trim", "--requests", str(requests)]
    assert main([*argv, "-o", str(out), "--apply", "-q"]) == 0
    capsys.readouterr()
    report = json.loads((out / "plan.json").read_text())["agents"][0]["trim"]
    assert report["proposed"]
    loaded = {s.name: s.description for s in load_catalog([f"project={skills}"])}
    assert loaded == {e["name"]: e["after"] for e in report["edits"]}
    backups = sorted(p.read_text() for p in (out / "backup").rglob("SKILL.md"))
    assert backups == sorted(before.values())
