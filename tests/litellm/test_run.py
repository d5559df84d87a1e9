"""End to end through ``skillbench run``: results rows, zero-request reruns, kill and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import KEY_ENV, SECRET, calls, fake_selector, write_project
from support.fake_openai import FakeOpenAI

from skillbench.cli import main
from skillbench.replay import load_config, run_experiment
from skillbench.results import ResultRow, read_run

REQUESTS = [
    {"id": f"q{i}", "text": text, "expected": expected}
    for i, (text, expected) in enumerate(
        [
            ("merge the pdf files", "pdf-merge"),
            ("weather in Paris tomorrow", "weather"),
            ("write a git commit message", "git-commit"),
            ("what is 2 + 2 [[text]]", None),
            ("merge the pdf [[unknown]]", "pdf-merge"),
            ("forecast weather [[429:1]]", "weather"),
            ("commit changes [[badjson]]", "git-commit"),
            ("pdf merge again please", "pdf-merge"),
        ]
    )
]


@pytest.fixture
def project(tmp_path: Path, fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    selector = fake_selector(fake.base_url)
    return write_project(
        tmp_path, REQUESTS, selector, profiles=["codebot", "codex"], half_lives=["1d", "7d"]
    )


def read_rows(run_dir: Path) -> list[ResultRow]:
    return read_run(run_dir).rows


def stable(rows: list[ResultRow]) -> list[tuple[Any, ...]]:
    """What must not depend on interruptions: the cell, the request, the choice and its calls."""
    keys = ("catalog", "profile", "budget", "ordering", "half_life", "selector", "repeat")
    return sorted(
        (
            *(getattr(r, k) for k in keys),
            r.request_id,
            r.chosen,
            r.outcome,
            json.dumps(r.detail.get("calls")),
        )
        for r in rows
    )


def test_run_writes_rows_and_a_rerun_sends_nothing(project: Path, fake: FakeOpenAI) -> None:
    config = load_config(project)
    result = run_experiment(config, output=project.parent / "run1")
    rows = read_rows(result.run_dir)
    assert len(rows) == len(REQUESTS) * 4 and result.status == "complete"
    outcomes = {(r.profile, r.request_id): r.outcome for r in rows}
    assert outcomes["codebot", "q0"] == "correct_skill"
    assert outcomes["codex", "q1"] == "correct_skill"
    assert outcomes["codebot", "q3"] == "correct_abstain"
    assert outcomes["codebot", "q4"] == "hallucinated"
    assert outcomes["codebot", "q6"] == "malformed"
    assert outcomes["codex", "q6"] == "correct_skill"  # codex reads files: no Skill JSON to break
    # Cells whose listings agree (codex ignores usage; early codebot turns) share prompts,
    # which are sent once; one 429 retry per profile comes on top.
    assert 2 * len(REQUESTS) + 2 <= len(calls(fake.bodies)) < 4 * len(REQUESTS) + 2
    sent = fake.requests
    again = run_experiment(config, output=project.parent / "run2")
    assert fake.requests == sent
    assert stable(read_rows(again.run_dir)) == stable(rows)
    text = "".join(p.read_text(encoding="utf-8") for p in result.run_dir.iterdir() if p.is_file())
    assert SECRET not in text


def test_dry_run_reports_calls_tokens_and_cost(
    project: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(project), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "calls to make: 16 of 16 distinct prompts (0 cached)" in out
    assert "cost (estimate): ~$" in out and "{" not in out
    assert fake.requests == 0


def test_interrupt_then_resume_equals_an_uninterrupted_run(project: Path, fake: FakeOpenAI) -> None:
    config = load_config(project)
    full = stable(read_rows(run_experiment(config, output=project.parent / "full").run_dir))

    def stop_after(done: int, total: int) -> None:
        if done == 5:
            raise KeyboardInterrupt

    run_dir = project.parent / "cut"
    with pytest.raises(KeyboardInterrupt):
        run_experiment(config, output=run_dir, progress=stop_after)
    assert json.loads((run_dir / "manifest.json").read_text())["status"] == "interrupted"
    kept = len((run_dir / "results.jsonl").read_text().splitlines())
    assert 0 < kept < len(full)
    result = run_experiment(config, output=run_dir, resume=True)
    assert result.resumed == kept and result.status == "complete"
    assert stable(read_rows(run_dir)) == full


def test_spend_cap_stops_the_run_resumably(project: Path, fake: FakeOpenAI) -> None:
    text = project.read_text(encoding="utf-8").replace('"max_attempts": 3', '"max_cost_usd": 1e-9')
    project.write_text(text, encoding="utf-8")
    config = load_config(project)
    run_dir = project.parent / "capped"
    result = run_experiment(config, output=run_dir, max_concurrency=1)
    assert result.status == "stopped" and "max_cost_usd" in (result.reason or "")
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["status"] == "stopped"


@pytest.mark.slow
def test_killed_subprocess_resumes_to_the_same_results(project: Path, tmp_path: Path) -> None:
    """SIGKILL a real ``skillbench run`` mid-way, resume it, compare with a clean run."""
    with FakeOpenAI(latency_s=0.3) as slow:
        data = json.loads(project.read_text(encoding="utf-8"))
        data["selectors"][0]["api_base"] = slow.base_url
        project.write_text(json.dumps(data))
        env = {**os.environ, KEY_ENV: SECRET, "SKILLBENCH_CACHE_DIR": str(tmp_path / "c2")}
        run_dir = tmp_path / "killed"
        cmd = [sys.executable, "-m", "skillbench", "run", str(project), "-o", str(run_dir)]
        proc = subprocess.Popen([*cmd, "-q", "-j", "1"], env=env)
        results = run_dir / "results.jsonl"
        deadline = time.time() + 120
        while time.time() < deadline:
            if results.exists() and len(results.read_text().splitlines()) >= 3:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kept = len(results.read_text().splitlines())
        assert 3 <= kept < len(REQUESTS) * 4
        subprocess.run([*cmd, "-q", "--resume"], env=env, check=True)
        resumed = read_rows(run_dir)
        full = run_experiment(load_config(project), output=tmp_path / "clean")
    assert stable(resumed) == stable(read_rows(full.run_dir))
