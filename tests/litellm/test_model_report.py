"""The report's model section against a run on the loopback server: calls, tokens, latency
and dollars per model cell, checked against the server's own log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from llm_helpers import calls, fake_selector, is_probe, price, write_project
from support.fake_openai import FakeOpenAI

from skillbench.replay import load_config, run_experiment
from skillbench.report import write_report

REQUESTS = [
    {"id": f"q{i}", "text": text, "expected": expected}
    for i, (text, expected) in enumerate(
        [
            ("merge the pdf files", "pdf-merge"),
            ("weather in Paris tomorrow", "weather"),
            ("write a git commit message", "git-commit"),
            ("forecast weather [[429:1]]", "weather"),
        ]
    )
]


def test_each_model_cell_reports_its_calls_tokens_latency_and_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    with FakeOpenAI(latency_s=0.3, retry_after="0.05") as server:
        selector = fake_selector(server.base_url)
        config = write_project(
            tmp_path,
            REQUESTS,
            selector,
            orderings=["alpha"],
            budgets=[4000],
            controls={"per_cell": 0},
        )
        result = run_experiment(load_config(config), output=tmp_path / "run")
        sent = calls(server.bodies)
        usages = [u for body, u in server.answered if not is_probe(body)]
    assert len(sent) == 5 and len(usages) == 4  # 4 decisions, one of them retried after a 429
    (md,) = [p for p in write_report(result.run_dir, formats=["md"]) if p.suffix == ".md"]
    text = md.read_text(encoding="utf-8")
    section = text.split("### Model calls", 1)[1].split("\n#", 1)[0]
    (line,) = [x for x in section.splitlines() if "openai/gpt-4o-mini" in x]
    cells = [c.strip() for c in line.strip("|").split("|")]
    prompt = sum(u["prompt_tokens"] for u in usages)
    completion = sum(u["completion_tokens"] for u in usages)
    dollars = sum(price(u["prompt_tokens"], u["completion_tokens"]) for u in usages)
    assert cells[2:8] == ["4", "5", "0", "0", f"{prompt:,}", f"{completion:,}"]
    p50, p95 = (float(c.replace(",", "")) for c in cells[8:10])
    assert 300 <= p50 <= p95 < 1500  # each call took 0.3 s at the server
    assert cells[10] == f"${dollars:,.4f}"
    assert re.search(r"\| latency p50 ms \| latency p95 ms \| cost \|", section)
