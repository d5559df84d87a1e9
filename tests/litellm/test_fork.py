"""``execute_fork``: invoked skills run in a sub-agent, whose measured summary replaces S."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import (
    KEY_ENV,
    MODEL,
    SECRET,
    calls,
    fake_selector,
    listing,
    queries,
    write_project,
)
from support.fake_openai import FakeOpenAI, fork_answer, fork_words, user_text

from skillbench.catalog import Skill
from skillbench.cli import main
from skillbench.dataset import LabelledRequest
from skillbench.replay import RunStopped
from skillbench.results import read_run
from skillbench.selectors import SELECTORS, Query, SelectorEnv

DEFAULT_SUMMARY = 200
REQUESTS = [
    {
        "id": f"{session}{turn}",
        "text": text,
        "expected": expected,
        "session": session,
        "turn": turn,
        "at": f"2025-01-06T10:{10 * (session == 'b') + turn:02d}:00Z",
    }
    for session, turn, text, expected in [
        ("a", 0, "merge the pdf files", "pdf-merge"),
        ("a", 1, "weather in Paris tomorrow", "weather"),
        ("a", 2, "write a git commit message", "git-commit"),
        ("b", 0, "what is 2 + 2 [[text]]", None),
        ("b", 1, "merge the pdf [[unknown]]", "pdf-merge"),
        ("b", 2, "commit changes [[badjson]]", "git-commit"),
    ]
]
REMAINING = {"a0": 3, "a1": 2, "a2": 1}
"""Turns left in session a, the current one included (requests are in turn order)."""


def run(root: Path, fake: FakeOpenAI, **params: Any) -> dict[str, dict[str, Any]]:
    """``skillbench run`` on a one-cell project under ``root``; rows by request id."""
    selector = fake_selector(fake.base_url, **params)
    # Controls off: they would fork too, and this counts the sub-agent calls.
    config = write_project(
        root, REQUESTS, selector, profiles=["codebot"], half_lives=["7d"], controls={"per_cell": 0}
    )
    out = root / "run"
    assert main(["run", str(config), "-o", str(out), "-q"]) == 0
    return {r.request_id: r for r in read_run(out).rows}


def cell_cost(root: Path) -> dict[str, Any]:
    (cell,) = json.loads((root / "run" / "summary.json").read_text())["cells"]
    return cell["cost"]


def fork_bodies(fake: FakeOpenAI) -> list[dict[str, Any]]:
    return [b for b in fake.bodies if not b.get("tools")]


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_measured_summary_replaces_the_default_and_reruns_send_nothing(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    plain = run(tmp_path / "plain", fake)
    assert fork_bodies(fake) == []
    forked = run(tmp_path / "fork", fake, execute_fork=True)
    bodies = fork_bodies(fake)
    assert len(bodies) == 3  # one per invoked listed skill; none for b0, b1, b2
    answers = {b["messages"][1]["content"].split('"')[1]: b for b in bodies}
    assert set(answers) == {"pdf-merge", "weather", "git-commit"}
    for request_id, turns in REMAINING.items():
        row, before = forked[request_id], plain[request_id]
        assert row.outcome == before.outcome == "correct_skill"
        fork = row.detail["fork"]
        body = answers[row.chosen]
        measured = row.detail["fork_summary_tokens"]
        assert measured == fork_words(user_text(body)) == len(fork["text"].split())
        assert fork["usage"]["completion_tokens"] == measured and fork["cost_usd"] > 0
        assert body["messages"][1]["content"].endswith(row_text(request_id))
        # fork = P + B + Q + W + S + S × R: only S changed.
        gap = (measured - DEFAULT_SUMMARY) * (1 + turns)
        assert row.fork_tokens - before.fork_tokens == gap
        assert row.inline_tokens == before.inline_tokens
    for request_id in ("b0", "b1", "b2"):
        assert "fork" not in forked[request_id].detail
        assert forked[request_id].fork_tokens == plain[request_id].fork_tokens
    total_gap = sum(forked[r].fork_tokens - plain[r].fork_tokens for r in REMAINING)
    assert cell_cost(tmp_path / "fork")["fork_tokens"] == (
        cell_cost(tmp_path / "plain")["fork_tokens"] + total_gap
    )
    sizes = [forked[r].detail["fork_summary_tokens"] for r in REMAINING]
    assert cell_cost(tmp_path / "fork")["measured_summaries"] == {
        "n": len(sizes),
        "mean_tokens": sum(sizes) / len(sizes),
    }
    assert cell_cost(tmp_path / "plain")["measured_summaries"] is None
    sent = fake.requests
    again = run(tmp_path / "again", fake, execute_fork=True)
    assert fake.requests == sent  # selections and forks both come from the cache
    assert all(again[r].detail["fork"]["cached"] for r in REMAINING)
    assert {r: again[r].fork_tokens for r in forked} == {r: forked[r].fork_tokens for r in forked}
    text = (tmp_path / "fork" / "run" / "results.jsonl").read_text(encoding="utf-8")
    assert SECRET not in text


def row_text(request_id: str) -> str:
    return next(r["text"] for r in REQUESTS if r["id"] == request_id)


def test_a_failing_fork_keeps_the_decision_and_the_default_summary(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    plain = run(tmp_path / "plain", fake)
    fake.script = {'<skill name="weather">': "[[always500]]"}
    forked = run(tmp_path / "fork", fake, execute_fork=True)
    row = forked["a1"]
    assert (row.outcome, row.chosen) == ("correct_skill", "weather")
    fork = row.detail["fork"]
    assert fork["status"] == 500 and fork["attempts"] == 3 and "server exploded" in fork["error"]
    assert "fork_summary_tokens" not in row.detail
    assert row.fork_tokens == plain["a1"].fork_tokens  # the default S of 200
    assert forked["a0"].fork_tokens != plain["a0"].fork_tokens  # others measured


def test_no_fork_without_a_listed_invocation(make_selector, fake: FakeOpenAI) -> None:
    texts = ["hello [[text]]", "merge pdf [[unknown]]", "merge pdf [[badjson]]", "weather Oslo"]
    decisions = make_selector(execute_fork=True).select(queries(texts))
    assert [d.kind for d in decisions] == ["abstain", "invoke", "malformed", "invoke"]
    assert [("fork" in d.detail) for d in decisions] == [False, False, False, True]
    (body,) = fork_bodies(fake)
    assert "tools" not in body and '<skill name="weather">' in body["messages"][1]["content"]


def test_the_skill_calls_args_expand_in_the_task(tmp_path: Path) -> None:
    skill = Skill("resize", "Resize images.", path="/sk/resize/SKILL.md", body="Resize $ARGUMENTS.")

    def policy(body: dict[str, Any]) -> list[tuple[str, str]] | str:
        if not body.get("tools"):
            return fork_answer(body)
        return [("Skill", json.dumps({"skill": "resize", "args": "cat.png 50%"}))]

    with FakeOpenAI(policy=policy) as server:
        params = {"model": MODEL, "api_base": server.base_url, "api_key_env": KEY_ENV}
        env = SelectorEnv(tmp_path / "c", quiet=True)
        sel = SELECTORS.get("litellm")(
            {
                **params,
                "execute_fork": True,
                "fork_system_prompt": "Sub-agent.",
                "fork_params": {"max_tokens": 64},
            },
            env,
        )
        query = Query(LabelledRequest("r", "make it smaller"), listing(skills=[skill]))
        (decision,) = sel.select([query])
        fork_body = server.bodies[-1]
    system, task = fork_body["messages"]
    assert system == {"role": "system", "content": "Sub-agent."}
    assert task["content"] == (
        '<skill name="resize">\nResize cat.png 50%.\n</skill>\n\nmake it smaller'
    )
    assert fork_body["max_tokens"] == 64
    assert decision.detail["fork"]["skill"] == "resize"


def test_fork_spend_counts_toward_the_cap(make_selector, fake: FakeOpenAI) -> None:
    sel = make_selector(execute_fork=True)
    sel.select(queries(["merge pdf files"]))
    assert len(calls(fake.bodies)) == 2 and len(fork_bodies(fake)) == 1
    assert sel.spend.calls == 3  # the selection, its fork and the pre-flight
    billed = sum(u["completion_tokens"] for u in fake.usages)
    assert sel.spend.completion_tokens == billed
    capped = make_selector(execute_fork=True, max_cost_usd=1e-9, cache=False)
    with pytest.raises(RunStopped, match="max_cost_usd"):
        capped.select(queries(["weather in Rome"]))
    assert len(calls(fake.bodies)) == 2  # neither the selection nor a fork fits the cap


def test_dry_run_adds_fork_calls_on_top(make_selector, fake: FakeOpenAI) -> None:
    cases = [("merge pdf", ("pdf-merge",)), ("weather Oslo", ("weather",)), ("no [[text]]", ())]
    shown = listing()
    labelled = [
        Query(LabelledRequest(f"r{i}", text, expected), shown)
        for i, (text, expected) in enumerate(cases)
    ]
    sel = make_selector(execute_fork=True)
    plan = sel.plan(labelled)
    assert plan["calls"] == 3 and plan["fork_calls"] == 2 and plan["fork_cached"] == 0
    assert plan["est_fork_prompt_tokens"] > 0 and plan["est_fork_cost_usd"] > 0
    assert "upper-bound" in plan["fork_note"]
    sel.select(labelled)
    after = sel.plan(labelled)
    assert after["calls"] == 0 and after["fork_calls"] == 0 and after["fork_cached"] == 2
    assert "fork_calls" not in make_selector().plan(labelled)
    assert len(calls(fake.bodies)) == 5  # three selections and two forks; planning sent nothing
