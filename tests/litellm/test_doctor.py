"""``skillbench doctor`` and ``skillbench run`` on a model that cannot be used: a clear
message, a non-zero exit, and no request (missing key) or one (refused key)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from llm_helpers import KEY_ENV, SECRET, calls, fake_selector, write_project
from support.fake_openai import FakeOpenAI, billed_prompt_tokens, listed_skills, refused_url

from skillbench.cli import main

REQUESTS = [
    {"id": "q0", "text": "merge the pdf files", "expected": "pdf-merge"},
    {"id": "q1", "text": "weather in Paris tomorrow", "expected": "weather"},
]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))


def project(root: Path, base_url: str, **params: object) -> Path:
    """A config with the model under test and an oracle (which has nothing to check)."""
    path = write_project(root, REQUESTS, fake_selector(base_url, **params))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["selectors"].append({"type": "oracle"})
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_doctor_passes_a_ready_config(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor", str(project(tmp_path, fake.base_url))]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "PASS  fake (litellm openai/gpt-4o-mini)"
    assert out[1].split()[:3] == ["ok", "key", KEY_ENV]
    assert fake.base_url in out[3] and "tools accepted" in out[3]
    assert out[4].split()[:2] == ["ok", "listing"] and "the model called Skill" in out[4]
    assert out[5].startswith("-     oracle (oracle): nothing outside skillbench to check")
    assert out[-1] == "every selector is ready" and fake.requests == 2
    largest = fake.bodies[1]  # the grid's largest listing, with the Skill call required
    assert largest["tool_choice"] == {"type": "function", "function": {"name": "Skill"}}
    assert set(listed_skills(largest)) == {"pdf-merge", "git-commit", "weather"}


def test_doctor_probes_a_retrieve_stage_with_the_retrieved_listing(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    """With ``retrieve: {k: 1}`` the model only ever sees one skill: the probe sends one
    (the full listing has three), and says it is a retrieved listing."""
    config = project(tmp_path, fake.base_url, retrieve={"method": "bm25", "k": 1})
    assert main(["doctor", str(config)]) == 0
    out = capsys.readouterr().out
    assert "retrieved listing (1 skills, request q" in out
    largest = fake.bodies[1]
    assert largest["tool_choice"] == {"type": "function", "function": {"name": "Skill"}}
    assert len(listed_skills(largest)) == 1


def test_doctor_fails_a_server_that_drops_tools(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI(policy=lambda body: "I can only answer in text.") as textual:
        assert main(["doctor", str(project(tmp_path, textual.base_url))]) == 1
    out = capsys.readouterr().out
    assert "FAIL  fake" in out and "BAD listing  no tool call came back" in out
    assert "1 of 2 selectors not ready" in out


def test_doctor_fails_a_context_too_small_for_the_largest_listing(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project(tmp_path, fake.base_url)
    assert main(["doctor", str(config)]) == 0
    probe, largest = (billed_prompt_tokens(b) for b in fake.bodies)
    assert probe < largest
    capsys.readouterr()
    with FakeOpenAI(context_tokens=(probe + largest) // 2) as small:
        assert main(["doctor", str(project(tmp_path, small.base_url))]) == 1
    out = capsys.readouterr().out
    assert "ok  endpoint" in out  # the one-line probe fits ...
    assert "BAD listing  the largest prompt" in out  # ... the run's largest prompt does not
    assert f"exceed context window of {(probe + largest) // 2}" in out


def test_doctor_json_names_the_failed_check(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI(api_keys={"sk-other-key-000"}) as strict:
        config = project(tmp_path, strict.base_url)
        assert main(["doctor", str(config), "--format", "json"]) == 1
        assert strict.requests == 1
    report = json.loads(capsys.readouterr().out)
    fake_sel, oracle = report["selectors"]
    assert report["ok"] is False and fake_sel["ok"] is False and oracle["ok"] is True
    endpoint = fake_sel["checks"][-1]
    assert endpoint["step"] == "endpoint" and not endpoint["ok"]
    assert "authentication failed (401)" in endpoint["message"]
    assert "Incorrect API key" in endpoint["message"] and SECRET not in endpoint["message"]


def test_doctor_reports_a_missing_key_without_a_request(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.delenv(KEY_ENV)
    start = time.perf_counter()
    assert main(["doctor", str(project(tmp_path, fake.base_url))]) == 1
    elapsed = time.perf_counter() - start
    out = capsys.readouterr().out
    assert f"BAD key      missing credentials: {KEY_ENV} (api_key_env) is not set" in out
    assert "1 of 2 selectors not ready" in out and fake.requests == 0 and elapsed < 5


def test_doctor_says_which_address_is_down(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = refused_url()
    start = time.perf_counter()
    assert main(["doctor", str(project(tmp_path, base, backoff_s=1.0, max_attempts=5))]) == 1
    assert time.perf_counter() - start < 5
    assert f"nothing is listening at {base}" in capsys.readouterr().out


def test_run_with_a_missing_key_fails_before_the_first_call(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.delenv(KEY_ENV)
    config = project(tmp_path, fake.base_url)
    start = time.perf_counter()
    code = main(["run", str(config), "-o", str(tmp_path / "run"), "-q"])
    elapsed = time.perf_counter() - start
    err = capsys.readouterr().err
    assert code != 0 and fake.requests == 0 and elapsed < 10
    assert f"missing credentials: {KEY_ENV} (api_key_env) is not set" in err


def test_run_with_a_refused_key_fails_at_the_first_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI(api_keys={"sk-other-key-000"}) as strict:
        config = project(tmp_path, strict.base_url, max_attempts=5)
        code = main(["run", str(config), "-o", str(tmp_path / "run"), "-q"])
        assert strict.requests == 1 and calls(strict.bodies) == []
    err = capsys.readouterr().err
    assert code != 0 and "authentication failed (401)" in err and "Incorrect API key" in err


def test_dry_run_needs_no_key(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.delenv(KEY_ENV)
    assert main(["run", str(project(tmp_path, fake.base_url)), "--dry-run"]) == 0
    assert fake.requests == 0


def test_a_run_warns_when_a_model_cell_abstains_on_every_decision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI(policy=lambda body: "I can only answer in text.") as textual:
        config = project(tmp_path, textual.base_url)
        # The same model fails its positive controls: the run ends incomplete, warned all the same.
        assert main(["run", str(config), "-o", str(tmp_path / "run")]) == 1
    err = capsys.readouterr().err
    assert "the model abstained on all 2 answered decisions" in err
    assert err.count("abstained on all") == 1  # the oracle's cell is no model cell
