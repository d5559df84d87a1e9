"""``skillbench render`` end to end on skill folders written by the test and on real catalogs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.cli._main import main

REVIEW = """---
name: review
description: Review changes for bugs, regressions, risks, and missing tests.
when_to_use: Use when the user asks for code review, patch review, or a merge-readiness check.
argument-hint: "[scope]"
---
Perform a code review.
"""
REFACTOR = """---
name: refactor
description: Improve code structure while preserving behavior.
argument-hint: "[scope]"
---
Refactor.
"""


@pytest.fixture
def skills_dir(tmp_path: Path) -> Path:
    for name, text in (("review", REVIEW), ("refactor", REFACTOR)):
        (tmp_path / "skills" / name).mkdir(parents=True)
        (tmp_path / "skills" / name / "SKILL.md").write_text(text)
    return tmp_path / "skills"


def test_text_is_exactly_the_listing(skills_dir: Path, tmp_path: Path, capsys) -> None:
    usage = tmp_path / "usage.json"
    usage.write_text(json.dumps({"review": {"count": 2, "last_used": "2025-01-01T00:00:00Z"}}))
    code = main(
        ["render", f"bundled={skills_dir}", "--usage", str(usage), "--now", "2025-01-02", "-q"]
    )
    out = capsys.readouterr()
    assert code == 0 and out.err == ""
    assert out.out == (
        "<system-reminder>\n## Skills\n"
        "The following skills are available for use with the Skill tool:\n"
        "- review [scope]: Review changes for bugs, regressions, risks, and missing tests.\n"
        "when: Use when the user asks for code review, patch review, or a merge-readiness check.\n"
        "- refactor [scope]: Improve code structure while preserving behavior.\n"
        "IMPORTANT: Only use Skill for skills listed above - do not guess or use built-in "
        "CLI commands.\n</system-reminder>\n"
    )


@pytest.mark.slow  # counts tokens: imports litellm (seconds, more on a busy machine)
def test_json_and_env_defaults(skills_dir: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("SKILLBENCH_PROFILE", "openharness")
    monkeypatch.setenv("SKILLBENCH_BUDGET", "10")
    assert main(["render", str(skills_dir), "--order", "alpha", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["profile"] == "openharness" and data["budget"] is None
    assert data["text"].startswith("# Available Skills\n\n")
    assert data["text"].index("- **refactor**") < data["text"].index("- **review**")
    assert data["chars"] == len(data["text"]) and data["tokens"] > 10
    assert [(s["name"], s["status"], s["position"]) for s in data["skills"]] == [
        ("refactor", "full", 0),
        ("review", "full", 1),
    ]


def test_bad_inputs_exit_1(skills_dir: Path, tmp_path: Path, capsys) -> None:
    assert main(["render", str(skills_dir), "--order", "alfa"]) == 1
    assert "did you mean 'alpha'" in capsys.readouterr().err
    bad = tmp_path / "usage.json"
    bad.write_text(json.dumps({"review": {"count": -1, "last_used": "2025-01-01"}}))
    assert main(["render", str(skills_dir), "--usage", str(bad)]) == 1
    assert "review.count" in capsys.readouterr().err


def test_real_catalog_stays_in_budget(shared_data: Path, capsys) -> None:
    catalog = shared_data / "catalogs" / "wshobson-agents"
    for profile, budget in (("codebot", 4000), ("claude-code", 30000)):
        assert main(["render", str(catalog), "--profile", profile, "-q"]) == 0
        text = capsys.readouterr().out
        assert 0 < len(text) <= budget + 60  # codebot's wrapper, claude-code's header: not counted
    # Codex budgets only its skill lines (each plus its newline), in approximate tokens
    # (UTF-8 bytes / 4 rounded up): 2% of the default model's window, 272,000 tokens in
    # 0.169.0 (5,440) and 500,000 in 0.171.0 (10,000).
    for profile, tokens in (("codex@0.169.0", 5440), ("codex@0.171.0", 10000)):
        assert main(["render", str(catalog), "--profile", profile, "-q"]) == 0
        lines = [line for line in capsys.readouterr().out.splitlines() if "(file: " in line]
        used = sum(-(-len((line + "\n").encode()) // 4) for line in lines)
        assert lines and tokens - 100 < used <= tokens
