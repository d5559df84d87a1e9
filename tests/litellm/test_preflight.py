"""Failures outside the benchmark stop the run at once, with the provider's own words.

Each case runs against the real loopback server and counts the HTTP requests it received,
so "no retries" and "before any call" are measured, not assumed.
"""

from __future__ import annotations

import time

import pytest
from llm_helpers import KEY_ENV, SECRET, calls, is_probe, queries
from support.fake_openai import FakeOpenAI, refused_url, user_text

from skillbench.selectors import Checkable
from skillbench.selectors._litellm import PROBE_TEXT, ModelUnavailable


def test_a_ready_model_passes_every_check(make_selector, fake: FakeOpenAI) -> None:
    sel = make_selector()
    assert isinstance(sel, Checkable)
    checks = sel.preflight()
    assert [(c.step, c.ok) for c in checks] == [("key", True), ("tools", True), ("endpoint", True)]
    assert KEY_ENV in checks[0].message and fake.base_url in checks[2].message
    (probe,) = fake.bodies
    assert is_probe(probe) and probe["tools"][0]["function"]["name"] == "Skill"
    assert probe["max_tokens"] <= 32
    sel.select(queries(["merge pdf files"]))
    assert fake.requests == 2  # the pre-flight ran once: the call, no second probe


def test_missing_key_fails_before_any_request(
    make_selector, fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV)
    start = time.perf_counter()
    with pytest.raises(ModelUnavailable, match=f"{KEY_ENV} \\(api_key_env\\) is not set") as e:
        make_selector().select(queries(["merge pdf files", "weather today"]))
    assert time.perf_counter() - start < 1.0
    assert e.value.kind == "credentials" and fake.requests == 0


def test_a_provider_key_litellm_needs_is_named(
    make_selector, fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    sel = make_selector(api_key_env=None)
    key, *rest = sel.preflight()
    assert not key.ok and "OPENAI_API_KEY is not set" in key.message and rest == []
    assert fake.requests == 0


@pytest.mark.parametrize(
    ("server", "marker", "kind", "status", "words"),
    [
        ({"api_keys": {"sk-other-key-000"}}, "", "authentication", 401, "Incorrect API key"),
        ({}, "[[403]]", "permission", 403, "does not have access"),
        ({"models": {"gpt-4o"}}, "", "unknown_model", 404, "does not exist"),
        ({}, "[[400]]", "bad_request", 400, "Invalid schema"),
    ],
)
def test_refusals_fail_the_first_call_without_retries(
    make_selector, server: dict, marker: str, kind: str, status: int, words: str
) -> None:
    script = {"Pre-flight": marker} if marker else {}
    with FakeOpenAI(script=script, **server) as fake:
        start = time.perf_counter()
        with pytest.raises(ModelUnavailable) as e:
            make_selector(api_base=fake.base_url, max_attempts=5).select(
                queries(["merge pdf files", "weather today", "commit please"])
            )
        assert fake.requests == 1  # the pre-flight, once: nothing retried, nothing else sent
    assert time.perf_counter() - start < 2.0
    assert (e.value.kind, e.value.status) == (kind, status)
    assert words in str(e.value) and SECRET not in str(e.value)


def test_a_refusal_during_the_run_stops_it_and_cancels_the_batch(
    make_selector, fake: FakeOpenAI
) -> None:
    # The key works for the pre-flight, then is revoked for one request of the batch.
    fake.latency_s = 0.05
    texts = ["merge pdf [[401]]", *[f"weather in city {i} [[slow:1]]" for i in range(20)]]
    with pytest.raises(ModelUnavailable, match="Incorrect API key") as e:
        make_selector(concurrency=2, max_attempts=5).select(queries(texts))
    assert e.value.kind == "authentication"
    refused = [b for b in fake.bodies if "[[401]]" in user_text(b)]
    assert len(refused) == 1  # not retried
    assert len(calls(fake.bodies)) < len(texts)  # queued calls were cancelled, not sent


def test_a_server_that_is_down_fails_in_seconds(make_selector) -> None:
    base = refused_url()
    start = time.perf_counter()
    with pytest.raises(ModelUnavailable, match=f"nothing is listening at {base}") as e:
        make_selector(api_base=base, max_attempts=5, backoff_s=1.0).select(
            queries(["merge pdf files"])
        )
    assert time.perf_counter() - start < 3.0 and e.value.kind == "unreachable"


def test_ollama_without_a_server_fails_in_seconds(make_selector) -> None:
    base = refused_url().removesuffix("/v1")
    start = time.perf_counter()
    sel = make_selector(model="ollama_chat/qwen2.5", api_base=base, api_key_env=None)
    checks = sel.preflight()
    assert time.perf_counter() - start < 3.0
    assert [c.ok for c in checks] == [True, True, False]
    assert checks[-1].message == f"nothing is listening at {base}"


def test_a_slow_probe_is_retried_like_any_call(make_selector, fake: FakeOpenAI) -> None:
    fake.script = {PROBE_TEXT: "[[slow:1]]"}
    checks = make_selector(timeout=0.5).preflight()
    assert checks[-1].ok and fake.requests == 2


def test_a_probe_that_always_times_out_fails(make_selector, fake: FakeOpenAI) -> None:
    fake.script = {PROBE_TEXT: "[[slow:9]]"}
    fake.slow_s = 1.0
    with pytest.raises(ModelUnavailable, match="failed 2 time") as e:
        make_selector(timeout=0.3, max_attempts=2).select(queries(["merge pdf"]))
    assert e.value.kind == "no_answer" and e.value.status == 408


def test_cached_runs_need_no_key_and_no_request(
    make_selector, fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    qs = queries(["merge pdf files", "weather today"])
    first = make_selector().select(qs)
    sent = fake.requests
    monkeypatch.delenv(KEY_ENV)
    again = make_selector().select(qs)
    assert [d.chosen for d in again] == [d.chosen for d in first]
    assert all(d.detail["cached"] for d in again) and fake.requests == sent
