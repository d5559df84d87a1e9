"""lint SB104: a frontmatter ``description`` with no text is an error.

Checked against the shipped agent: Claude Code 2.1.328, run offline against a loopback
recorder, listed a skill declared with ``description: ""`` under its body's first line, the
same text skillbench's loader falls back to (quoted in the finding); Codex's loader rejects
an empty description (the catalog's codex profile does too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.authoring import lint_sources
from skillbench.catalog import load_catalog
from tests.authoring.conftest import write_skill


def _errors(root: Path) -> list[tuple[str, str, int | None]]:
    report = lint_sources([str(root)], profiles=("codex",))
    return [
        (Path(f.path or "").parent.name, f.rule.id, f.line)
        for f in report.findings
        if f.severity != "info"
    ]


@pytest.mark.parametrize("value", ['""', "''", "", "~"])
def test_an_empty_description_is_an_error_at_its_line(tmp_path: Path, value: str) -> None:
    write_skill(tmp_path, "blank", f"name: blank\ndescription: {value}\nversion: '1'", "First.\n")
    assert _errors(tmp_path) == [("blank", "SB104", 3)]
    report = lint_sources([str(tmp_path)], profiles=("codex",))
    (finding,) = [f for f in report.findings if f.rule.id == "SB104"]
    assert finding.severity == "error" and report.failed()
    assert "Codex: drop the skill" in finding.message
    assert "Claude Code, " in finding.message
    assert "list the body's first line instead ('First.')" in finding.message


def test_codex_drops_the_skill(tmp_path: Path) -> None:
    write_skill(tmp_path, "blank", 'name: blank\ndescription: ""', "First.\n")
    assert not load_catalog([str(tmp_path)], profile="codex").skills


@pytest.mark.parametrize(
    "frontmatter",
    [
        "name: folded\ndescription: >\n  Text on the next line.",
        "name: folded\ndescription:\n  Plain text continued below.",
        "name: folded\ndescription: Real text.",
    ],
)
def test_a_description_written_below_its_key_is_not_empty(tmp_path: Path, frontmatter: str) -> None:
    write_skill(tmp_path, "folded", frontmatter)
    assert _errors(tmp_path) == []


def test_a_missing_description_stays_a_load_warning(tmp_path: Path) -> None:
    # No description in the frontmatter; the body shows a YAML example with an empty one.
    write_skill(tmp_path, "none", "name: none", "Intro.\n\n```yaml\ndescription:\n```\n")
    assert _errors(tmp_path) == [("none", "SB002", 1)]
