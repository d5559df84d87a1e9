"""A run names the shipped agents it depends on and says when their own skills are missing."""

from __future__ import annotations

import json
from pathlib import Path

from skillbench.listing import AgentSnapshot, BuiltinSkill
from skillbench.replay import load_config, run_experiment
from skillbench.report import write_report
from tests.support.runs import DEVTOOLS_INPUTS


def _config(tmp_path: Path, profile: str) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(
        "name: agents\n"
        + DEVTOOLS_INPUTS
        + f"profiles: [{profile}]\nbudgets: [null]\norderings: [alpha]\n"
        + "selectors: [{type: oracle}]\n"
    )
    return path


def test_without_a_snapshot_the_run_says_built_ins_are_missing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "empty-cache"))
    result = run_experiment(
        load_config(_config(tmp_path, "claude-code")), output=tmp_path / "o", limit=5
    )
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["agents"] == {
        "claude-code": {"verified_version": "2.1.332", "snapshot": None, "builtin_skills": 0}
    }
    assert any("built-in skills are missing" in note for note in result.notes)
    write_report(tmp_path / "o", ["md"])
    assert (
        "claude-code listings lack the agent's built-in skills"
        in (tmp_path / "o" / "report.md").read_text()
    )


def test_a_snapshot_given_by_path_is_recorded_with_its_built_ins(tmp_path: Path) -> None:
    snapshot = AgentSnapshot(
        agent="codex",
        version="0.169.0",
        builtin_skills=(
            BuiltinSkill("house-style", "Our own test text.", path="house-style/SKILL.md"),
            BuiltinSkill("tea-timer", "Also ours.", path="tea-timer/SKILL.md"),
        ),
    )
    path = tmp_path / "snapshot.json"
    path.write_text(snapshot.to_json())
    profile = f"{{name: codex@0.169.0, snapshot: '{path}'}}"
    result = run_experiment(load_config(_config(tmp_path, profile)), output=tmp_path / "o", limit=5)
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["agents"]["codex@0.169.0"] == {
        "verified_version": "0.169.0",
        "snapshot": str(path),
        "builtin_skills": 2,
    }
    assert not any("built-in skills are missing" in note for note in result.notes)
