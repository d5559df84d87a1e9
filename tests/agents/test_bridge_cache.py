"""The bridge's response cache: a repeat of a decision asks the model again.

Without the repeat in the key, every repeat of a live cell replayed the first repeat's answer
and repeats measured nothing; the same repeat in another workspace still hits.
"""

from __future__ import annotations

from pathlib import Path

from skillbench.agents import Bridge, Recorded, Upstream
from skillbench.cache import ResponseCache
from tests.support.fake_openai import FakeOpenAI


def _ask(fake: FakeOpenAI, cache: ResponseCache, root: str, repeat: int) -> bool:
    bridge = Bridge(
        Upstream(model="openai/gpt-4o-mini", api_base=f"{fake.base_url}/v1", api_key="k"),
        lambda body: True,
        cache,
        {root: "$WORKSPACE"},
        repeat,
    )
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": f"merge the pdf files in {root}/docs"}],
    }
    bridge(Recorded("/v1/chat/completions", body))
    assert not bridge.errors, bridge.errors
    (call,) = bridge.calls
    return call.cached


def test_each_repeat_asks_the_model_and_a_repeat_hits_in_another_workspace(
    tmp_path: Path,
) -> None:
    cache = ResponseCache(tmp_path / "cache")
    with FakeOpenAI() as fake:
        first = _ask(fake, cache, "/tmp/ws-a", 0)
        second = _ask(fake, cache, "/tmp/ws-b", 1)
        again = _ask(fake, cache, "/tmp/ws-c", 1)
        asked = fake.requests
    assert (first, second, again) == (False, False, True)
    assert asked == 2
