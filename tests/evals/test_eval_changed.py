"""``eval --changed``: only the skills changed since a git ref and their look-alikes are
scored, with GitHub annotations and a Markdown step summary."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from skillbench.authoring import escape_data, escape_property, workflow_command
from skillbench.cli._main import main
from tests.evals.conftest import write_set


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def test_changed_skills_and_their_lookalikes_are_scored(
    skills: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    repo = skills.parent
    for name in ("git-rebase", "docker-build"):
        write_set(skills / name, [{"query": f"{name} please", "should_trigger": True}])
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    _git(repo, "checkout", "-qb", "feature")
    # A committed change to pdf-extract's description, an uncommitted one to pdf-merge's
    # set and an untracked file outside any skill. pdf-merge is pdf-extract's look-alike
    # (both about PDF files: `skillbench overlap` ranks that pair first by far, cosine 0.43
    # and BM25 0.16 against at most 0.22 and 0 for any other pair) and the other way round;
    # git-rebase and docker-build have sets but nothing of theirs changed.
    skill_md = skills / "pdf-extract" / "SKILL.md"
    skill_md.write_text(skill_md.read_text().replace("Extract text", "Pull text"))
    _git(repo, "commit", "-qam", "reword")
    write_set(
        skills / "pdf-merge",
        [
            {"query": "combine these three PDFs into one", "should_trigger": True},
            {"query": "rebase onto main", "should_trigger": False},
        ],
    )
    (repo / "NOTES.md").write_text("untracked\n")
    summary = tmp_path / "summary.md"
    monkeypatch.chdir(repo)
    code = main(
        [
            "eval",
            "skills",
            "--changed",
            "main",
            "--lookalikes",
            "1",
            "--selector",
            "never",
            "--repeats",
            "1",
            "--min-pass-rate",
            "0.9",
            "--format",
            "github",
            "--summary",
            str(summary),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 100
    assert "changed since main: pdf-extract, pdf-merge; look-alikes: pdf-extract, pdf-merge" in err
    scored = [line.split()[0] for line in err.splitlines() if line.endswith("skills listed)")]
    assert scored == ["pdf-extract", "pdf-merge"]
    # `never` misses every should-trigger query: one annotation per failing query, on its
    # line, plus one per skill under the floor.
    assert out.splitlines() == [
        "::error file=skills/pdf-extract/evals/evals.json,line=2,title=pdf-extract%3A trigger "
        "eval failed::should trigger but triggered 0 of 1 runs (invoked: none 1): get the "
        "text out of this pdf report",
        "::error file=skills/pdf-extract/evals/evals.json,line=6,title=pdf-extract%3A trigger "
        "eval failed::should trigger but triggered 0 of 1 runs (invoked: none 1): extract the "
        "table on page 3 of invoice.pdf",
        "::error file=skills/pdf-extract/evals/evals.json,title=pdf-extract::pass rate 50%25 is "
        "below the floor 90%25",
        "::error file=skills/pdf-merge/evals/evals.json,line=2,title=pdf-merge%3A trigger "
        "eval failed::should trigger but triggered 0 of 1 runs (invoked: none 1): combine "
        "these three PDFs into one",
        "::error file=skills/pdf-merge/evals/evals.json,title=pdf-merge::pass rate 50%25 is "
        "below the floor 90%25",
    ]
    text = summary.read_text()
    assert text.startswith("## Skill trigger evals\n")
    # Wilson 95% of 0/2 is [0, 0.658]; of 2/2 [0.342, 1]; of 2/4 [0.150, 0.850]; of 1/2
    # [0.095, 0.905]. The validation split holds one query of each label: one fails.
    assert (
        "| `pdf-extract` | 0/2 (0%, 95% CI 0%-66%) | 2/2 (100%, 95% CI 34%-100%) | "
        "2/4 (50%, 95% CI 15%-85%) | 1/2 (50%, 95% CI 9%-91%) | **fail** |"
    ) in text
    assert "| `pdf-extract` | get the text out of this pdf report | should trigger | 0/1 |" in text
    assert "git-rebase" not in text and "docker-build" not in text


def test_nothing_changed_scores_nothing(
    skills: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    repo = skills.parent
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    monkeypatch.chdir(repo)
    code = main(["eval", "skills", "--changed", "main", "--selector", "never", "--summary", ""])
    out = capsys.readouterr().out
    assert code == 0
    assert "changed since main: no skill; look-alikes: none" in out


def test_an_unknown_ref_is_an_error(skills: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    _git(skills.parent, "init", "-q", "-b", "main")
    monkeypatch.chdir(skills.parent)
    assert main(["eval", "skills", "--changed", "no-such-ref", "--selector", "never"]) == 1
    assert "error: git diff --name-only no-such-ref...HEAD" in capsys.readouterr().err


def test_annotation_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"
    line = workflow_command("warning", "line1\nline2", file="x,y.json", line=3, title="t::u")
    assert line == "::warning file=x%2Cy.json,line=3,title=t%3A%3Au::line1%0Aline2"
