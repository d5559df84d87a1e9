"""A ``router`` section: calls spread over deployments, each with its own key and limits.

Two fake servers play two regions; each accepts only its own key, so a request that reached a
server with the wrong key would come back 401 and stop the run.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import MODEL, calls, queries, write_project
from support.fake_openai import FakeOpenAI

from skillbench._errors import InputError, SkillbenchError
from skillbench.replay import load_config, run_experiment
from skillbench.selectors import SELECTORS, SelectorEnv
from skillbench.selectors._litellm._router import Deployment, RouterSpec

KEYS = {"EU_KEY": "eu-key-0123456789", "US_KEY": "us-key-9876543210"}


@pytest.fixture
def regions(monkeypatch: pytest.MonkeyPatch):
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    with (
        FakeOpenAI(api_keys={KEYS["EU_KEY"]}) as eu,
        FakeOpenAI(api_keys={KEYS["US_KEY"]}) as us,
    ):
        yield eu, us


def deployments(eu: FakeOpenAI, us: FakeOpenAI, eu_rpm: int, us_rpm: int) -> list[dict]:
    return [
        {"api_base": eu.base_url, "api_key_env": "EU_KEY", "rpm": eu_rpm},
        {"api_base": us.base_url, "api_key_env": "US_KEY", "rpm": us_rpm, "tpm": 10**7},
    ]


def build(tmp_path: Path, **params: Any):
    env = SelectorEnv(tmp_path / "cache", max_concurrency=4, quiet=True, base_dir=tmp_path)
    merged = {"model": MODEL, "backoff_s": 0.01, "max_attempts": 2, **params}
    return SELECTORS.get("litellm")(merged, env)


def test_calls_spread_over_both_deployments(regions, tmp_path: Path) -> None:
    eu, us = regions
    router = {"deployments": deployments(eu, us, 1000, 1000)}
    texts = [f"weather in city {i}" for i in range(40)]
    decisions = build(tmp_path, router=router).select(queries(texts))
    assert all(d.kind == "invoke" and d.chosen == "weather" for d in decisions)
    sent = len(calls(eu.bodies)) + len(calls(us.bodies))
    assert sent == len(texts)
    # simple-shuffle weighs by rpm; equal weights put 40 calls on one side with chance 2^-39.
    assert calls(eu.bodies) and calls(us.bodies)
    text = json.dumps([d.detail for d in decisions])
    assert not any(key in text for key in KEYS.values())


def test_a_deployment_gets_no_more_than_its_rpm(regions, tmp_path: Path) -> None:
    eu, us = regions
    router = {
        "deployments": deployments(eu, us, 3, 1000),
        "routing_strategy": "usage-based-routing-v2",
    }
    texts = [f"merge pdf number {i}" for i in range(20)]
    decisions = build(tmp_path, router=router).select(queries(texts))
    assert all(d.kind == "invoke" for d in decisions)
    # rpm counts per UTC clock minute (the pre-flight probe too); a run may straddle two.
    per_minute = Counter(int(t // 60) for t in eu.times)
    assert per_minute and max(per_minute.values()) <= 3
    assert eu.requests + us.requests == len(texts) + 1


def test_each_worker_gets_a_share_of_every_limit() -> None:
    spec = RouterSpec((Deployment("m", rpm=10, tpm=1000), Deployment("m", rpm=3)))
    half = spec.share(4)
    assert [(d.rpm, d.tpm) for d in half.deployments] == [(2, 250), (1, None)]
    assert spec.share(1) is spec


@pytest.mark.parametrize(
    ("router", "message"),
    [
        ({"deployments": [{"api_bse": "http://x"}]}, "did you mean 'api_base'"),
        ({"deployments": [{"rpm": 0}]}, r"deployments\[0\]\.rpm: expected a positive integer"),
        ({"deployments": [{"api_key_env": "sk-live-123"}]}, "NAME of an environment variable"),
        ({"deployments": []}, "non-empty list"),
        ({"deployments": [{}], "routing_strategy": "usage-based"}, "did you mean"),
        ({"deployments": [{}], "strategy": "x"}, "did you mean 'routing_strategy'"),
    ],
)
def test_bad_router_params_are_named(router: dict, message: str, tmp_path: Path) -> None:
    with pytest.raises(SkillbenchError, match=message):
        build(tmp_path, router=router)


def test_keys_belong_to_the_deployments(tmp_path: Path) -> None:
    router = {"deployments": [{"api_base": "http://127.0.0.1:9/v1"}]}
    with pytest.raises(SkillbenchError, match="set api_base and api_key_env on each deployment"):
        build(tmp_path, router=router, api_base="http://127.0.0.1:9/v1")


def test_a_bad_router_is_reported_at_its_selector_line(tmp_path: Path) -> None:
    path = write_project(tmp_path, [{"id": "r0", "text": "hi"}], {"type": "oracle"})
    path.write_text(
        "name: llm\n"
        "catalogs: {base: [skills]}\n"
        "requests: requests.jsonl\n"
        "selectors:\n"
        "  - type: oracle\n"
        f"  - type: litellm\n    model: {MODEL}\n    router:\n      deployments: [1]\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as raised:
        run_experiment(load_config(path), output=tmp_path / "run")
    assert (raised.value.location.file, raised.value.location.line) == (str(path), 6)
    assert "deployments[0]: expected a mapping" in str(raised.value)


@pytest.mark.slow
def test_workers_route_with_their_own_router(regions, tmp_path: Path) -> None:
    eu, us = regions
    router = {"deployments": deployments(eu, us, 1000, 1000)}
    texts = [f"git commit number {i}" for i in range(40)]
    decisions = build(tmp_path, router=router, processes=2).select(queries(texts))
    assert all(d.kind == "invoke" and d.chosen == "git-commit" for d in decisions)
    assert calls(eu.bodies) and calls(us.bodies)
    assert len(calls(eu.bodies)) + len(calls(us.bodies)) == len(texts)


def test_the_preflight_names_an_unset_deployment_key(regions, monkeypatch, tmp_path) -> None:
    eu, us = regions
    monkeypatch.delenv("US_KEY")
    checks = build(tmp_path, router={"deployments": deployments(eu, us, 10, 10)}).preflight()
    assert [(c.step, c.ok) for c in checks] == [("key", False)]
    assert "US_KEY" in checks[0].message and eu.requests == us.requests == 0
