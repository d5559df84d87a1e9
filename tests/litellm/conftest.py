"""Fixtures: the fake OpenAI server and a litellm selector pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import KEY_ENV, MODEL, SECRET
from support.fake_openai import FakeOpenAI

from skillbench.selectors import SELECTORS, Selector, SelectorEnv


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(slow_s=1.5, retry_after="0.05") as server:
        yield server


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, SECRET)
    return SECRET


@pytest.fixture
def make_selector(fake: FakeOpenAI, tmp_path: Path):
    """``make_selector(**params)``: a litellm selector on the fake server, fast retries."""

    def make(concurrency: int = 8, cache_dir: Path | None = None, **params: Any) -> Selector:
        env = SelectorEnv(cache_dir or tmp_path / "cache", max_concurrency=concurrency, quiet=True)
        merged: dict[str, Any] = {
            "model": MODEL,
            "api_base": fake.base_url,
            "api_key_env": KEY_ENV,
            "backoff_s": 0.01,
            "timeout": 0.75,
            "max_attempts": 3,
            **params,
        }
        return SELECTORS.get("litellm")(merged, env)

    return make
