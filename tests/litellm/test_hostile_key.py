"""A key holding ``"`` or ``\\``, echoed back by a server plainly and JSON-escaped, is kept
nowhere: not in a decision's detail (a results row) and not in the response cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_helpers import KEY_ENV, queries
from support.fake_openai import FakeOpenAI, _completion

pytestmark = pytest.mark.timeout(60)

QUOTED_KEY = 'sk-quote"and\\backslash-0123456789'


def test_an_echoed_key_with_quotes_is_kept_nowhere(
    make_selector, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(KEY_ENV, QUOTED_KEY)
    escaped = json.dumps(QUOTED_KEY)[1:-1]
    with FakeOpenAI() as server:
        server._answer = (  # type: ignore[method-assign]
            lambda body, auth, conn=None: (
                200,
                {},
                _completion(body, f"plain {auth[7:]} escaped {json.dumps(auth[7:])[1:-1]}"),
            )
        )
        selector = make_selector(api_base=server.base_url, cache_dir=tmp_path / "cache")
        decisions = selector.select(queries(["merge pdf"]))
    detail = json.dumps(decisions[0].detail)
    assert decisions[0].detail["text"] == "plain [REDACTED] escaped [REDACTED]"
    stored = [p.read_text(encoding="utf-8") for p in (tmp_path / "cache").rglob("*.json")]
    assert stored
    for text in [detail, *stored]:
        assert QUOTED_KEY not in text and escaped not in text
        assert json.dumps(escaped)[1:-1] not in text
