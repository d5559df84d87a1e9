"""tune with a model proposer: litellm against the loopback OpenAI-compatible server, with
skillbench's response cache, the spend cap and the no-leakage check."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI, default_policy
from tune_project import assert_no_test_text_in_prompts, write_tune_project

from skillbench.authoring import TuneOptions, make_proposer, tune, write_report
from skillbench.cli._main import main
from skillbench.replay import load_config
from skillbench.selectors import SelectorEnv

KEY_ENV = "SKILLBENCH_TUNE_TEST_KEY"
MODEL = "openai/gpt-4o-mini"
"""Priced offline by litellm, so the spend cap has dollars to count."""
PROPOSALS = {
    "flaky-checks": "Fix checks that fail intermittently: timing races between workers.",
    "deploy": "Deploy or ship the service release to production (prod).",
}


def _policy(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
    """Proposer calls (no tools) get JSON candidates for the skill named in the prompt."""
    if body.get("tools"):
        return default_policy(body)
    prompt = str(body["messages"][-1]["content"])
    name = prompt.split("\n", 1)[0].removeprefix("Skill name: ")
    return "```json\n" + json.dumps({"descriptions": [PROPOSALS.get(name, "Unchanged.")]}) + "\n```"


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv(KEY_ENV, "sk-tune-test-secret")
    with FakeOpenAI(policy=_policy) as server:
        yield server


def _proposer(fake: FakeOpenAI, cache: Path, **options: Any):
    env = SelectorEnv(cache)
    params = {"api_base": fake.base_url, "api_key_env": KEY_ENV, "backoff_s": 0.01, **options}
    return make_proposer(MODEL, params, env)


def test_model_proposer_end_to_end_with_cache(fake: FakeOpenAI, tmp_path: Path) -> None:
    config = load_config(write_tune_project(tmp_path / "project"))
    options = TuneOptions(iterations=2, focus=2)
    first = tune(config, _proposer(fake, tmp_path / "cache"), tmp_path / "out1", options)
    sent = fake.requests
    assert sent >= 2
    assert first.changes["flaky-checks"] == PROPOSALS["flaky-checks"]
    data = write_report(first, tmp_path / "out1", MODEL)
    assert data.train.gain > 0 and data.status == "complete"
    assert assert_no_test_text_in_prompts(tmp_path / "out1") == sent
    saved = json.loads(sorted((tmp_path / "out1" / "prompts").glob("*.json"))[0].read_text())
    assert saved["messages"][1]["content"].startswith("Skill name: ")
    assert "sk-tune-test-secret" not in json.dumps(saved)
    # Same inputs, same cache: nothing is sent again and the result is identical.
    second = tune(config, _proposer(fake, tmp_path / "cache"), tmp_path / "out2", options)
    assert fake.requests == sent
    assert second.changes == first.changes


def test_spend_cap_stops_cleanly(fake: FakeOpenAI, tmp_path: Path) -> None:
    config = write_tune_project(tmp_path / "project")
    out = tmp_path / "out"
    argv = ["tune", str(config), "-o", str(out), "-q", "--focus", "2", "--proposer", MODEL]
    argv += ["--api-base", fake.base_url, "--api-key-env", KEY_ENV, "--max-cost-usd", "1e-9"]
    # The first call is allowed (nothing spent yet) and costs more than the cap, so the
    # second skill's call is refused: tune stops, still writes its report, and exits 1.
    assert main(argv) == 1
    assert fake.requests == 1
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["status"] == "stopped" and "spend cap" in report["reason"]
    assert_no_test_text_in_prompts(out)


def test_failed_model_call_is_an_error(fake: FakeOpenAI, tmp_path: Path) -> None:
    config = write_tune_project(tmp_path / "project")
    argv = ["tune", str(config), "-o", str(tmp_path / "out"), "-q", "--proposer", MODEL]
    argv += ["--api-base", fake.base_url, "--api-key-env", "SKILLBENCH_TUNE_UNSET_KEY"]
    fake.script = {"Skill name": "[[always500]]"}
    assert main(argv) == 1
    assert not (tmp_path / "out" / "report.json").exists()
