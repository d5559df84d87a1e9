"""Positive controls of model cells, through ``skillbench run`` against the fake server.

Each litellm cell is asked for every listed skill by name (three skills, fewer than the
default five controls); a model that never calls a tool fails them all, one that takes the
named skill passes, and neither changes a single scored figure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import SKILLS, fake_selector, write_project
from support.fake_openai import FakeOpenAI

from skillbench.cli import main
from skillbench.results import read_run

REQUESTS = [
    {"id": "q0", "text": "merge the pdf files", "expected": "pdf-merge"},
    {"id": "q1", "text": "weather in Paris tomorrow", "expected": "weather"},
    {"id": "q2", "text": "what is 2 + 2", "expected": None},
    {"id": "q3", "text": "tell me a joke", "expected": None},
]


def never(body: Mapping[str, Any]) -> str:
    return "I will just answer."


def _project(tmp_path: Path, url: str, monkeypatch: pytest.MonkeyPatch, **extra: Any) -> Path:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    return write_project(
        tmp_path, REQUESTS, fake_selector(url), profiles=["codebot", "codex"], **extra
    )


def test_a_model_that_never_triggers_fails_every_cells_controls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI(policy=never) as fake:
        config = _project(tmp_path, fake.base_url, monkeypatch)
        assert main(["run", str(config), "-o", str(tmp_path / "out"), "-q"]) == 1
    run = read_run(tmp_path / "out")
    assert run.status == "incomplete"
    assert "positive controls" in (run.manifest.stop_reason or "")  # type: ignore[union-attr]
    assert len(run.summary.cells) == 2
    for cell in run.summary.cells:
        assert cell.controls is not None
        assert (cell.controls.n, cell.controls.triggered) == (3, 0)
        assert cell.controls.status == "controls_failed"
        # Scored: 2 positives missed, 2 negatives rightly left alone; the 3 missed controls
        # would make it 5 missed and an accuracy of 2/7.
        assert cell.n == 4
        assert cell.outcomes["missed"] == 2 and cell.outcomes["correct_abstain"] == 2
        assert cell.metric("accuracy") == 0.5
        assert cell.metric("recall") == 0.0
    assert len(run.rows) == 8
    assert sorted(r.request_id for r in run.controls if r.profile == "codex") == [
        f"control:{s.name}" for s in sorted(SKILLS, key=lambda s: s.name)
    ]
    assert all(r.control and r.outcome == "missed" for r in run.controls)
    report = (tmp_path / "out" / "report.md").read_text()
    assert "### Positive controls and listings" in report
    failures = [line for line in report.splitlines() if line.startswith("- **profile=")]
    assert len(failures) == 2 and all("triggered 0/3 (0%, below 95%)" in f for f in failures)
    greyed = [line for line in report.splitlines() if line.startswith("| *")]
    assert len(greyed) == 2, greyed


def test_allow_failed_controls_ends_complete_and_still_marks_the_cells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI(policy=never) as fake:
        config = _project(tmp_path, fake.base_url, monkeypatch)
        out = str(tmp_path / "out")
        assert main(["run", str(config), "-o", out, "-q", "--allow-failed-controls"]) == 0
    run = read_run(tmp_path / "out")
    assert run.status == "complete"
    assert all(c.controls and c.controls.failed for c in run.summary.cells)


def test_a_model_that_takes_named_skills_passes_and_controls_stay_out_of_metrics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI() as fake:
        config = _project(tmp_path, fake.base_url, monkeypatch)
        assert main(["run", str(config), "-o", str(tmp_path / "out"), "-q"]) == 0
        texts = [json.dumps(b["messages"][-1]["content"]) for b in fake.bodies]
    run = read_run(tmp_path / "out")
    assert run.status == "complete"
    for cell in run.summary.cells:
        assert cell.controls is not None
        assert (cell.controls.n, cell.controls.triggered, cell.controls.rate) == (3, 3, 1.0)
        assert cell.controls.status == "passed"
        # The overlap policy: q0 and q1 named by their words, q2 and q3 left alone.
        assert cell.n == 4 and cell.metric("accuracy") == 1.0
    assert any("Use the weather skill" in t for t in texts)
    lines = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    marked = [json.loads(line) for line in lines if '"control"' in line]
    assert len(marked) == 6 and all(m["control"] is True for m in marked)
    assert all("control" not in json.loads(line) for line in lines if '"control"' not in line)


def test_controls_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI(policy=never) as fake:
        config = _project(tmp_path, fake.base_url, monkeypatch, controls={"per_cell": 0})
        assert main(["run", str(config), "-o", str(tmp_path / "out"), "-q"]) == 0
    run = read_run(tmp_path / "out")
    assert run.controls == [] and all(c.controls is None for c in run.summary.cells)


def test_a_resume_keeps_answered_controls_and_asks_nothing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI(policy=never) as fake:
        config = _project(tmp_path, fake.base_url, monkeypatch)
        out = str(tmp_path / "out")
        assert main(["run", str(config), "-o", out, "-q"]) == 1
        sent = fake.requests
        assert main(["run", str(config), "-o", out, "-q", "--resume"]) == 1
        assert fake.requests == sent
        flags = ["--resume", "--allow-failed-controls"]
        assert main(["run", str(config), "-o", out, "-q", *flags]) == 0
        assert fake.requests == sent
    run = read_run(tmp_path / "out")
    assert len(run.rows) == 8 and len(run.controls) == 6
    assert all(c.controls and c.controls.failed for c in run.summary.cells)


def test_the_dry_run_counts_the_control_calls_of_each_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Five controls (the default) per cell and repeat: two repeats, up to ten per cell, on
    top of the 4 requests × 2 repeats = 8 calls; none asked of the server."""
    with FakeOpenAI(policy=never) as fake:
        config = _project(tmp_path, fake.base_url, monkeypatch, repeats=2)
        assert main(["run", str(config), "--dry-run"]) == 0
        on = [x for x in capsys.readouterr().out.splitlines() if " calls, " in x]
        off = _project(tmp_path / "off", fake.base_url, monkeypatch, controls={"per_cell": 0})
        assert main(["run", str(off), "--dry-run"]) == 0
        assert fake.requests == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if " calls, " in x]
    assert len(lines) == 2 and not any("control" in x for x in lines)
    assert len(on) == 2
    assert all(": 8 calls, " in x and x.endswith("and up to 10 positive-control calls") for x in on)
