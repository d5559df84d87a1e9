"""What real local servers do, replayed by the loopback server: calls that never end,
streamed answers, case-variant names, raw newlines in tool arguments, nothing listening."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from llm_helpers import calls, fake_selector, queries, write_project
from support.fake_openai import FakeOpenAI, refused_url

from skillbench.cli import main
from skillbench.replay import load_config, run_experiment
from skillbench.results import read_run

REQUESTS = [
    {"id": "q0", "text": "merge the pdf files", "expected": "pdf-merge"},
    {"id": "q1", "text": "weather in Paris [[hang]]", "expected": "weather"},
    {"id": "q2", "text": "write a git commit message", "expected": "git-commit"},
]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))


def test_a_call_past_the_timeout_is_an_error_and_its_connection_closed(tmp_path: Path) -> None:
    with FakeOpenAI(hang_s=60) as server:
        selector = fake_selector(server.base_url, timeout=1, max_attempts=2)
        config = write_project(tmp_path, REQUESTS, selector)
        start = time.perf_counter()
        result = run_experiment(load_config(config), output=tmp_path / "run")
        elapsed = time.perf_counter() - start
        hung_up = server.disconnects
    rows = {r.request_id: r for r in read_run(result.run_dir).rows}
    assert result.status == "incomplete" and elapsed < 30  # finished, not hung
    hung = rows["q1"]
    assert hung.outcome == "error" and hung.detail["error"] == "timed out after 1 s"
    assert hung.detail["attempts"] == 2 and hung.detail["status"] == 408
    assert rows["q0"].outcome == rows["q2"].outcome == "correct_skill"
    assert hung_up == 2  # each timed-out try hung up, so the server stopped generating


def test_a_streamed_answer_decides_like_a_whole_one(make_selector, fake: FakeOpenAI) -> None:
    texts = ["merge pdf", "weather in Oslo", "tell me a joke [[text]]", "merge pdf [[newlines]]"]
    whole = make_selector(cache=False).select(queries(texts))
    streamed = make_selector(cache=False, params={"stream": True}).select(queries(texts))
    assert [(d.kind, d.chosen) for d in streamed] == [(d.kind, d.chosen) for d in whole]
    assert [d.kind for d in streamed] == ["invoke", "invoke", "abstain", "invoke"]
    assert all(b.get("stream") for b in calls(fake.bodies)[len(texts) :])
    assert streamed[0].detail["usage"]["prompt_tokens"] > 0


def test_a_stream_that_never_ends_is_cut_at_the_timeout(make_selector) -> None:
    with FakeOpenAI(hang_s=60) as dripping:
        start = time.perf_counter()
        (d,) = make_selector(
            api_base=dripping.base_url, timeout=3, max_attempts=1, params={"stream": True}
        ).select(queries(["merge pdf files [[drip]]"]))
        assert time.perf_counter() - start < 20
        # A stream that keeps sending never trips the client's timeout: skillbench's own
        # deadline (timeout + 5 s) ends it.
        assert (d.kind, d.detail["error"]) == ("error", "timed out after 8 s")
        assert _eventually(lambda: dripping.disconnects >= 1)


def _eventually(check, seconds: float = 3.0) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_raw_newlines_in_tool_arguments_are_read_and_kept(make_selector, fake: FakeOpenAI) -> None:
    (d,) = make_selector().select(queries(["merge pdf [[newlines]]"]))
    assert (d.kind, d.chosen) == ("invoke", "pdf-merge")
    raw = d.detail["calls"][0]["arguments"]
    assert raw == '{"skill": "pdf-merge", "args": "}\n{\n  "}'  # as the server sent it


def test_a_case_variant_name_is_hallucinated_and_costs_nothing(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    requests = [
        {"id": "q0", "text": "merge the pdf files [[case]]", "expected": "pdf-merge"},
        {"id": "q1", "text": "merge the pdf files", "expected": "pdf-merge"},
    ]
    config = write_project(tmp_path, requests, fake_selector(fake.base_url))
    result = run_experiment(load_config(config), output=tmp_path / "run")
    rows = {r.request_id: r for r in read_run(result.run_dir).rows}
    variant, exact = rows["q0"], rows["q1"]
    assert variant.chosen == "Pdf-merge" and variant.outcome == "hallucinated"
    assert variant.inline_tokens is None and variant.fork_tokens is None
    assert exact.outcome == "correct_skill" and exact.inline_tokens > 0


def test_nothing_listening_is_said_in_those_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = refused_url()
    config = write_project(tmp_path, REQUESTS[:1], fake_selector(base))
    assert main(["run", str(config), "-o", str(tmp_path / "run"), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"nothing is listening at {base}" in err
    assert "Connection error" not in err and "never awaited" not in err
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "failed" and base in manifest["stop_reason"]
