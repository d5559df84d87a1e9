"""The spend cap holds under concurrency, measured from what the server billed.

Expected dollars are computed here from the server's own log: the usage it reported for each
answer, priced with litellm's list price for the model, and each request's worst case (its
prompt counted with the gpt-4o tokenizer plus ``max_tokens``), not from the selector's books.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from llm_helpers import MAX_TOKENS, calls, is_probe, price, queries, spend_cap, worst_case
from support.fake_openai import FakeOpenAI

from skillbench.replay import RunStopped
from skillbench.selectors._litellm import NOT_SENT


def test_the_cap_holds_at_concurrency_8(make_selector, tmp_path: Path) -> None:
    texts = [f"merge pdf number {i} please" for i in range(60)]
    with FakeOpenAI(latency_s=0.05) as fake:
        cap = spend_cap(make_selector, fake, tmp_path / "sizer", texts[0], 12.5)
        sel = make_selector(
            concurrency=8,
            api_base=fake.base_url,
            max_cost_usd=cap,
            params={"max_tokens": MAX_TOKENS},
        )
        decisions = sel.select(queries(texts))
        with pytest.raises(RunStopped, match="max_cost_usd"):
            sel.select(queries(texts[:1]))
        billed = sum(price(u["prompt_tokens"], u["completion_tokens"]) for u in fake.usages)
        estimates = [worst_case(b) for b in fake.bodies]
    assert billed <= cap + max(estimates)
    assert billed <= cap  # stronger: no answer billed more than it reserved
    sent = [d for d in decisions if d.detail.get("error") != NOT_SENT]
    not_sent = [d for d in decisions if d.detail.get("error") == NOT_SENT]
    assert len(sent) == len(calls(fake.bodies)) and not_sent and 4 <= len(sent) < len(texts)
    assert all(d.kind == "invoke" for d in sent)  # paid answers are kept, none thrown away
    assert sum(is_probe(b) for b in fake.bodies) == 1


def test_resume_pays_only_for_what_was_not_sent(make_selector, fake: FakeOpenAI) -> None:
    texts = [f"weather in city {i}" for i in range(12)]
    first = make_selector(concurrency=2, max_cost_usd=3e-4, params={"max_tokens": MAX_TOKENS})
    decisions = first.select(queries(texts))
    not_sent = [
        t for t, d in zip(texts, decisions, strict=True) if d.detail.get("error") == NOT_SENT
    ]
    assert 0 < len(not_sent) < len(texts)
    paid = len(calls(fake.bodies))
    again = make_selector(concurrency=2, params={"max_tokens": MAX_TOKENS}).select(queries(texts))
    assert len(calls(fake.bodies)) == paid + len(not_sent)
    assert all(d.kind == "invoke" for d in again)
