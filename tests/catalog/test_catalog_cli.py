"""``skillbench catalog`` through the real entry point: json keys, text table, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from skillbench.cli._main import main

WriteSkill = Callable[..., Path]


@pytest.fixture
def two_sources(tmp_path: Path, write_skill: WriteSkill) -> list[str]:
    write_skill(tmp_path / "base", "review", description="Base review.")
    write_skill(tmp_path / "proj", "review", description="Project review.", typo="x")
    write_skill(tmp_path / "proj", "lint", description="Lint.", paths="'*.py'")
    return [f"bundled={tmp_path / 'base'}", f"project={tmp_path / 'proj'}"]


def test_json_output(two_sources: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", *two_sources, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"skills", "overrides", "diagnostics"}
    skills = {s["name"]: s for s in doc["skills"]}
    assert set(skills) == {"lint", "review"}
    for key in ("name", "source", "path", "status", "description", "context"):
        assert key in skills["review"]
    assert skills["review"]["source"] == "project"
    assert skills["lint"]["status"] == "inactive"
    [override] = doc["overrides"]
    assert override["winner"]["source"] == "project" and override["loser"]["source"] == "bundled"
    [diag] = doc["diagnostics"]
    assert set(diag) == {"path", "line", "reason", "severity", "field"}
    assert (diag["field"], diag["line"], diag["severity"]) == ("typo", 3, "warning")


def test_text_output_and_cwd(
    two_sources: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "x.py").write_text("")
    assert (
        main(["catalog", *two_sources, "--profile", "claude-code", "--cwd", str(tmp_path / "work")])
        == 0
    )
    out = capsys.readouterr().out
    header, *rows = out.splitlines()
    assert header.split() == ["NAME", "SOURCE", "STATUS", "PATH"]
    # Claude Code lists a ``paths`` skill only once a matching file is touched, not up front
    assert rows[0].split()[:3] == ["lint", "project", "inactive"]
    assert "overrides:" in out and "diagnostics:" in out
    assert "2 skills (1 active, 1 inactive, 0 disabled), 1 overrides, 1 diagnostics" in out


def test_user_errors_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", f"usr={tmp_path}"]) == 1
    assert "did you mean 'user'" in capsys.readouterr().err
    assert main(["catalog", str(tmp_path / "missing")]) == 1


def test_cli_module_stays_light() -> None:
    code = (
        "import sys; import skillbench.cli._catalog; "
        "heavy = {'torch', 'litellm', 'pandas', 'matplotlib', 'sentence_transformers', 'numpy'}; "
        "print(sorted(heavy & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
