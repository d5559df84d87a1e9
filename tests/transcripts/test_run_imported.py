"""An imported set is a benchmark: ``skillbench run`` replays it as it is."""

from __future__ import annotations

from pathlib import Path

import yaml
from transcript_helpers import compress, read_jsonl

from skillbench.cli._main import main


def _run(requests: Path, usage: Path, skills: Path, tmp_path: Path) -> list[dict]:
    config = {
        "name": "imported",
        "catalogs": {"mine": [{"path": str(skills), "source": "user"}]},
        "requests": str(requests),
        "profiles": ["claude-code"],
        "budgets": [8000],
        "orderings": ["usage"],
        "half_lives": ["7d"],
        "usage": {"record": "label", "warm_start": str(usage)},
        "selectors": [{"type": "oracle"}, {"type": "lexical", "threshold": 0.5}],
        "seed": 0,
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    out = tmp_path / "run"
    assert main(["run", str(path), "-o", str(out), "-q"]) == 0
    return read_jsonl(out / "results.jsonl")


def test_claude_code_import_runs(fixtures: Path, tmp_path: Path) -> None:
    imported = tmp_path / "imported"
    skills = fixtures / "skills"
    main(
        [
            "import",
            "claude-code",
            str(fixtures / "claude"),
            "-o",
            str(imported),
            "-q",
            "--skills",
            str(skills),
        ]
    )
    rows = _run(imported / "requests.jsonl", imported / "usage.json", skills, tmp_path)
    assert len(rows) == 2 * 5  # two selectors over the five requests left once /clear goes
    oracle = {r["request_id"]: r["outcome"] for r in rows if r["selector"] == "oracle"}
    assert oracle == {
        "sess-1111#0": "correct_skill",
        "sess-1111#1": "correct_abstain",
        "sess-1111#2": "correct_skill",
        "sess-1111#3": "correct_skill",
        "sess-1111/agent-a1#0": "correct_skill",
    }


def test_codex_import_runs(fixtures: Path, tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    compress(fixtures / "codex/rollout-old.jsonl", sessions / "rollout-old.jsonl.zst")
    imported = tmp_path / "imported"
    skills = fixtures / "skills"
    main(
        [
            "import",
            "codex",
            str(sessions),
            str(fixtures / "codex/sessions"),
            "-o",
            str(imported),
            "-q",
            "--skills",
            str(skills),
        ]
    )
    rows = _run(imported / "requests.jsonl", imported / "usage.json", skills, tmp_path)
    assert len(rows) == 2 * 5
    assert {r["request_id"] for r in rows} == {"cx-0#0", "cx-0#1", "cx-1#0", "cx-1#1", "cx-1#2"}
