"""Nothing finished is lost: every decision is on disk as it finishes, whatever the model does.

Each test runs ``skillbench run`` (in this process or as a real subprocess) against the
loopback server, which is slow, refuses, or hangs as each case needs.
"""

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
from llm_helpers import (
    KEY_ENV,
    MAX_TOKENS,
    SECRET,
    calls,
    fake_selector,
    spend_cap,
    wait_for,
    write_project,
)
from support.fake_openai import FakeOpenAI

from skillbench.replay import load_config, run_experiment
from skillbench.results import ResultRow
from skillbench.results import read_rows as _read_rows
from skillbench.selectors._litellm import ModelUnavailable

TEXTS = [
    "merge the pdf files",
    "weather in Paris tomorrow",
    "write a git commit message",
    "pdf merge again please",
    "weather in Oslo",
    "commit my staged changes",
    "merge two pdf documents",
    "weather for the weekend",
]


def requests(texts: list[str]) -> list[dict[str, Any]]:
    """Requests replayed in file order (one minute apart)."""
    return [
        {"id": f"q{i}", "text": t, "at": f"2025-01-01T00:{i:02d}:00Z"} for i, t in enumerate(texts)
    ]


def rows(run_dir: Path) -> list[ResultRow]:
    return _read_rows(run_dir / "results.jsonl")


def manifest(run_dir: Path) -> dict[str, Any]:
    return json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize("marker", ["[[400]]", "[[401]]", "[[404]]"])
def test_a_fatal_answer_keeps_the_decisions_before_it(
    tmp_path: Path, fake: FakeOpenAI, marker: str
) -> None:
    texts = [*TEXTS[:5], f"merge the pdf {marker}", *TEXTS[5:]]
    config = write_project(
        tmp_path, requests(texts), fake_selector(fake.base_url), budgets=[4000], orderings=["alpha"]
    )
    run_dir = tmp_path / "run"
    with pytest.raises(ModelUnavailable):
        run_experiment(load_config(config), output=run_dir, max_concurrency=1)
    kept = rows(run_dir)
    # One worker sends the calls in order: five answers, then the refusal.
    assert [r.request_id for r in kept] == ["q0", "q1", "q2", "q3", "q4"]
    assert all(r.outcome != "error" for r in kept)
    assert manifest(run_dir)["status"] == "failed"


def test_latency_is_each_calls_own(tmp_path: Path) -> None:
    with FakeOpenAI(latency_s=1.0) as slow:
        config = write_project(
            tmp_path,
            requests(TEXTS),
            fake_selector(slow.base_url),
            orderings=["alpha"],
            controls={"per_cell": 0},
        )
        start = time.perf_counter()
        result = run_experiment(load_config(config), output=tmp_path / "run", max_concurrency=1)
        wall = time.perf_counter() - start
        assert len(calls(slow.bodies)) == 8
    latencies = [r.latency_ms for r in rows(result.run_dir)]
    # The pre-flight and 8 calls queued behind one worker take 9 s; each call took 1 s.
    assert wall >= 9.0
    assert all(1000 <= ms < 1900 for ms in latencies), latencies


def test_a_message_that_is_null_is_an_error(make_selector, fake: FakeOpenAI) -> None:
    from llm_helpers import queries

    (d,) = make_selector().select(queries(["merge pdf files [[nullmessage]]"]))
    assert d.kind == "error" and d.detail["error"] == "the response's first choice has no message"
    assert d.detail["response"]["choices"][0]["message"] is None


def test_a_request_too_long_for_the_context_is_that_decisions_error(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    texts = [*TEXTS[:3], "merge pdf [[context]]", "weather [[llamactx]]", *TEXTS[3:]]
    config = write_project(
        tmp_path, requests(texts), fake_selector(fake.base_url), controls={"per_cell": 0}
    )
    result = run_experiment(load_config(config), output=tmp_path / "run")
    by_id = {r.request_id: r for r in rows(result.run_dir)}
    assert result.status == "incomplete" and len(by_id) == len(texts)
    for request_id in ("q3", "q4"):
        detail = by_id[request_id].detail
        assert by_id[request_id].outcome == "error" and detail["status"] == 400
        assert detail["attempts"] == 1  # not retried: the same prompt cannot fit later
    # litellm maps OpenAI's words to its ContextWindowExceededError; llama.cpp's it leaves
    # a plain BadRequestError, which the words mark as this request's alone.
    assert by_id["q3"].detail["error"].startswith("ContextWindowExceededError: This model's")
    assert by_id["q4"].detail["error"].startswith("BadRequestError: Requested tokens")
    assert "exceed context window of 512" in by_id["q4"].detail["error"]
    others = [by_id[f"q{i}"] for i in (0, 1, 2, 5, 6, 7, 8, 9)]
    assert all(r.outcome != "error" and r.chosen is not None for r in others)


def offline_reference(tmp_path: Path, texts: list[str]) -> set[tuple[str, str]]:
    """(selector, request id) of every offline decision, from a run without the model."""
    selectors = [{"type": "oracle"}, {"type": "lexical"}]
    config = write_project(tmp_path / "reference", requests(texts), selectors[0])
    data = json.loads(config.read_text(encoding="utf-8"))
    data["selectors"] = selectors
    config.write_text(json.dumps(data), encoding="utf-8")
    result = run_experiment(load_config(config), output=tmp_path / "reference" / "run")
    return {(r.selector, r.request_id) for r in rows(result.run_dir)}


def start_run(tmp_path: Path, base_url: str, texts: list[str]) -> tuple[subprocess.Popen, Path]:
    """``skillbench run`` of the model and two offline selectors, as a subprocess."""
    config = write_project(tmp_path, requests(texts), fake_selector(base_url, timeout=120))
    data = json.loads(config.read_text(encoding="utf-8"))
    data["selectors"] += [{"type": "oracle"}, {"type": "lexical"}]
    config.write_text(json.dumps(data), encoding="utf-8")
    env = {**os.environ, KEY_ENV: SECRET, "SKILLBENCH_CACHE_DIR": str(tmp_path / "c2")}
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "skillbench", "run", str(config), "-o", str(run_dir), "-q"]
    return subprocess.Popen([*cmd, "-j", "2"], env=env, stderr=subprocess.PIPE), run_dir


def on_disk(run_dir: Path) -> set[tuple[str, str]]:
    path = run_dir / "results.jsonl"
    if not path.exists():
        return set()
    lines = path.read_text(encoding="utf-8").splitlines()
    return {(json.loads(x)["selector"], json.loads(x)["request_id"]) for x in lines if x}


@pytest.mark.parametrize("how", ["kill", "interrupt"])
def test_a_slow_model_holds_up_no_offline_decision(tmp_path: Path, how: str) -> None:
    """Every call takes 20 s: the offline decisions are on disk long before the first
    model answer, and survive a kill -9 or a Ctrl-C (which also hangs up on the server)."""
    offline = offline_reference(tmp_path, TEXTS)
    with FakeOpenAI(latency_s=20.0) as slow:
        proc, run_dir = start_run(tmp_path, slow.base_url, TEXTS)
        try:
            assert wait_for(lambda: offline <= on_disk(run_dir), 60), on_disk(run_dir)
            # The model is being asked (importing litellm first is slow on a loaded machine).
            assert wait_for(lambda: len(slow.bodies) >= 1, 120)
            if how == "kill":
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=10)
            else:
                proc.send_signal(signal.SIGINT)
                assert proc.wait(timeout=15) == 130
                assert manifest(run_dir)["status"] == "interrupted"
                assert wait_for(lambda: slow.disconnects >= 1, 5)  # calls abandoned, not left
                assert b"never awaited" not in (proc.stderr.read() if proc.stderr else b"")
        finally:
            if proc.poll() is None:
                proc.kill()
    assert on_disk(run_dir) == offline  # every offline decision; no model call had finished


def test_the_spend_cap_keeps_every_answer_it_paid_for(
    tmp_path: Path, make_selector, fake: FakeOpenAI
) -> None:
    cap = spend_cap(make_selector, fake, tmp_path / "sizer", TEXTS[0], 3.5)
    selector = fake_selector(fake.base_url, max_cost_usd=cap, params={"max_tokens": MAX_TOKENS})
    config = write_project(tmp_path, requests(TEXTS), selector, orderings=["alpha"], budgets=[4000])
    result = run_experiment(load_config(config), output=tmp_path / "run", max_concurrency=2)
    kept = rows(result.run_dir)
    assert result.status == "stopped" and "max_cost_usd" in (result.reason or "")
    assert 1 <= len(kept) < len(TEXTS) and all(r.outcome != "error" for r in kept)
    assert len(kept) == len(calls(fake.bodies))  # every call sent is a decision on disk


def test_a_failed_cli_run_keeps_its_rows_and_prints_one_clean_error(tmp_path: Path) -> None:
    texts = [*TEXTS[:3], "merge the pdf [[401]]", *TEXTS[3:]]
    with FakeOpenAI() as server:
        config = write_project(
            tmp_path,
            requests(texts),
            fake_selector(server.base_url),
            budgets=[4000],
            orderings=["alpha"],
        )
        env = {**os.environ, KEY_ENV: SECRET, "SKILLBENCH_CACHE_DIR": str(tmp_path / "c")}
        run_dir = tmp_path / "run"
        cmd = [sys.executable, "-m", "skillbench", "run", str(config), "-o", str(run_dir)]
        done = subprocess.run([*cmd, "-q", "-j", "1"], env=env, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: model openai/gpt-4o-mini: authentication failed (401): "
        "AuthenticationError: Incorrect API key provided."
    ]
    assert [r.request_id for r in rows(run_dir)] == ["q0", "q1", "q2"]
