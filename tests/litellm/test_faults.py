"""Against a real HTTP server: every fault ends in the right outcome and nothing is lost."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from llm_helpers import SECRET, calls, queries
from support.fake_openai import FakeOpenAI

from skillbench.metrics import classify
from skillbench.replay import RunStopped
from skillbench.selectors._litellm import ModelUnavailable


def outcome(decision, expected: tuple[str, ...], shown) -> str:
    return classify(expected, decision, shown)


def test_each_fault_ends_in_its_outcome(fake: FakeOpenAI, make_selector) -> None:
    cases = [
        ("merge these pdf files", ("pdf-merge",), "correct_skill"),
        ("forecast weather please [[429:2]]", ("weather",), "correct_skill"),
        ("write a git commit [[500:1]]", ("git-commit",), "correct_skill"),
        ("merge the pdf [[slow:1]]", ("pdf-merge",), "correct_skill"),
        ("merge the pdf [[always500]]", ("pdf-merge",), "error"),
        ("merge the pdf [[badjson]]", ("pdf-merge",), "malformed"),
        ("merge the pdf [[noskill]]", ("pdf-merge",), "malformed"),
        ("merge the pdf [[unknown]]", ("pdf-merge",), "hallucinated"),
        ("weather [[multi]]", ("weather",), "correct_skill"),
        ("tell me a joke [[text]]", (), "correct_abstain"),
    ]
    qs = queries([t for t, _, _ in cases])
    decisions = make_selector().select(qs)
    got = [
        outcome(d, e, qs[0].listing.shown_names)
        for d, (_, e, _) in zip(decisions, cases, strict=True)
    ]
    assert got == [o for _, _, o in cases]
    by_text = {t: d for (t, _, _), d in zip(cases, decisions, strict=True)}
    assert by_text["forecast weather please [[429:2]]"].detail["attempts"] == 3
    assert by_text["merge the pdf [[slow:1]]"].detail["attempts"] == 2
    failed = by_text["merge the pdf [[always500]]"]
    assert failed.detail["attempts"] == 3 and failed.detail["status"] == 500
    assert "server exploded" in failed.detail["error"]
    multi = by_text["weather [[multi]]"].detail
    assert multi["trigger_call"] == 1 and len(multi["calls"]) == 3
    for d in decisions:
        json.dumps(d.detail)  # kept in results as is


def test_retry_after_is_honoured(make_selector, fake: FakeOpenAI) -> None:
    fake.retry_after = "0.4"
    start = time.perf_counter()
    (d,) = make_selector(backoff_s=0.0).select(queries(["weather today [[429:1]]"]))
    assert d.kind == "invoke" and d.detail["attempts"] == 2
    assert time.perf_counter() - start >= 0.4
    assert d.latency_ms < 400  # the call's own time: the wait between tries is not in it


def test_second_identical_run_makes_no_requests(make_selector, fake: FakeOpenAI) -> None:
    texts = ["merge pdf files", "weather in Oslo", "git commit please", "hello there"]
    first = make_selector().select(queries(texts))
    sent = fake.requests
    assert len(calls(fake.bodies)) == len(texts) and sent == len(texts) + 1  # + the pre-flight
    again = make_selector().select(queries(texts))
    assert fake.requests == sent  # all cached: not even a pre-flight
    assert [(d.kind, d.chosen) for d in again] == [(d.kind, d.chosen) for d in first]
    assert all(d.detail["cached"] for d in again)
    # A new repeat index is a new sample: it is sent.
    make_selector().select(queries(texts[:1], repeat=1))
    assert len(calls(fake.bodies)) == len(texts) + 1


def test_errors_are_never_cached(make_selector, fake: FakeOpenAI) -> None:
    make_selector().select(queries(["merge pdf [[always500]]"]))
    sent = len(calls(fake.bodies))
    (d,) = make_selector().select(queries(["merge pdf [[always500]]"]))
    assert d.kind == "error" and len(calls(fake.bodies)) == sent + 3


def test_identical_prompts_in_one_batch_are_sent_once(make_selector, fake: FakeOpenAI) -> None:
    qs = queries(["merge pdf files"] * 6, repeat=0)
    decisions = make_selector(concurrency=4).select(qs)
    assert len(calls(fake.bodies)) == 1 and {d.chosen for d in decisions} == {"pdf-merge"}


def test_concurrency_is_bounded_per_endpoint(make_selector) -> None:
    with FakeOpenAI(latency_s=0.1) as slow:
        sel = make_selector(concurrency=4, api_base=slow.base_url)
        texts = [f"merge pdf number {i}" for i in range(12)]
        start = time.perf_counter()
        sel.select(queries(texts))
        wall = time.perf_counter() - start
        assert len(calls(slow.bodies)) == 12
        assert wall >= 4 * 0.1  # the pre-flight, then 12 calls, 4 at a time, 100 ms each


def test_secrets_never_reach_details_cache_or_errors(
    make_selector, fake: FakeOpenAI, tmp_path: Path
) -> None:
    sel = make_selector(cache_dir=tmp_path / "c")
    decisions = sel.select(queries(["hi [[echokey]]", "merge pdf [[always500]]"]))
    assert fake.authorizations[0] == f"Bearer {SECRET}"  # the key was sent ...
    assert "[REDACTED]" in decisions[0].detail["text"]
    for d in decisions:
        assert SECRET not in json.dumps(d.detail)  # ... but is kept nowhere
    for f in (tmp_path / "c").rglob("*.json"):
        assert SECRET not in f.read_text(encoding="utf-8")


def test_error_text_is_redacted(make_selector, monkeypatch: pytest.MonkeyPatch) -> None:
    # A 401 message that quotes the key back (as some providers do) is scrubbed.
    with FakeOpenAI() as server:
        server._answer = (
            lambda body, auth, *_: (  # type: ignore[method-assign]
                401,
                {},
                {"error": {"message": f"Incorrect API key provided: {auth[7:]}"}},
            )
        )
        with pytest.raises(ModelUnavailable) as failed:
            make_selector(api_base=server.base_url).select(queries(["merge pdf"]))
    message = str(failed.value)
    assert failed.value.status == 401 and "Incorrect API key" in message
    assert SECRET not in message and "[REDACTED]" in message


def test_spend_is_tracked_and_a_cap_too_small_sends_nothing(
    make_selector, fake: FakeOpenAI
) -> None:
    texts = [f"merge pdf {i}" for i in range(5)]
    sel = make_selector(concurrency=1, max_cost_usd=1e-9)
    with pytest.raises(RunStopped, match="max_cost_usd"):
        sel.select(queries(texts))
    assert calls(fake.bodies) == []  # no call fits under the cap: none is sent
    more = make_selector(concurrency=1, max_cost_usd=1.0)
    decisions = more.select(queries(texts))
    assert len(calls(fake.bodies)) == 5 and more.spend.calls == 6  # five and the pre-flight
    assert 0 < more.spend.cost_usd < 1.0 and not decisions[0].detail["cached"]


def test_plan_counts_calls_after_dedupe_and_cache(make_selector, fake: FakeOpenAI) -> None:
    sel = make_selector()
    qs = queries(["merge pdf", "merge pdf", "weather", "commit"])
    plan = sel.plan(qs)
    assert plan["calls"] == 3 and plan["cached"] == 0 and plan["unique_prompts"] == 3
    assert plan["est_prompt_tokens"] > 100 and plan["est_cost_usd"] > 0
    assert fake.requests == 0  # planning sends nothing
    sel.select(qs[:1])
    assert sel.plan(qs)["calls"] == 2 and sel.plan(qs)["cached"] == 1


def test_codex_profile_triggers_by_reading_the_file(make_selector, fake: FakeOpenAI) -> None:
    qs = queries(["merge my pdf files", "weather [[unknown]]"], profile="codex")
    good, bad = make_selector().select(qs)
    assert (good.kind, good.chosen) == ("invoke", "pdf-merge")
    assert outcome(bad, ("weather",), qs[0].listing.shown_names) == "hallucinated"
    body = calls(fake.bodies)[0]
    assert [t["function"]["name"] for t in body["tools"]] == ["read_file"]
    assert "(file: /sk/pdf-merge/SKILL.md)" in body["messages"][0]["content"]
