"""Worker processes make the calls; what the run decides, pays and caches is unchanged.

Every selector here with ``processes: 2`` shares one pool of two spawned workers (started
once per test process: seconds of importing litellm each), against the fake server of its
test. The first test runs by default; the others, marked slow, reuse its pool when run with it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from llm_helpers import (
    KEY_ENV,
    MAX_TOKENS,
    SECRET,
    calls,
    fake_selector,
    is_probe,
    price,
    queries,
    spend_cap,
    wait_for,
    worst_case,
    write_project,
)
from support.fake_openai import FakeOpenAI

from skillbench._errors import SkillbenchError
from skillbench.cli._run import with_processes
from skillbench.replay import RunStopped, load_config
from skillbench.selectors._litellm import NOT_SENT, ModelUnavailable

TEXTS = [
    "merge these pdf files",
    "forecast weather please [[429:2]]",
    "write a git commit [[500:1]]",
    "merge the pdf [[always500]]",
    "merge the pdf [[badjson]]",
    "merge the pdf [[unknown]]",
    "weather [[multi]]",
    "tell me a joke [[text]]",
    "weather [[nochoices]]",
    "merge the pdf [[nofunction]]",
    *(f"weather in city {i}" for i in range(12)),
]


def decided(decisions) -> list[tuple]:
    """What a run records, without the wall-clock latency."""
    return [
        (d.kind, d.chosen, json.dumps({**d.detail, "latency_ms": None}, sort_keys=True))
        for d in decisions
    ]


def test_decisions_do_not_depend_on_the_process_count(make_selector, fake, tmp_path) -> None:
    # No marker here is slow: a generous timeout keeps a loaded machine from adding retries.
    one = make_selector(cache_dir=tmp_path / "one", timeout=30).select(queries(TEXTS))
    sent_by_one = len(fake.bodies)
    fake.reset()  # the same faults again: each marker counts attempts per prompt
    two = make_selector(cache_dir=tmp_path / "two", processes=2, timeout=30).select(queries(TEXTS))
    assert decided(two) == decided(one)
    assert len(fake.bodies) == sent_by_one
    by_text = dict(zip(TEXTS, two, strict=True))
    assert by_text["forecast weather please [[429:2]]"].detail["attempts"] == 3
    assert by_text["merge the pdf [[always500]]"].detail["status"] == 500
    assert {d.kind for d in two} == {"invoke", "error", "malformed", "abstain"}


@pytest.mark.slow
def test_a_second_run_is_answered_by_the_cache(make_selector, fake, tmp_path) -> None:
    first = make_selector(processes=2).select(queries(TEXTS[:1] + TEXTS[-4:]))
    fake.reset()
    again = make_selector(processes=2).select(queries(TEXTS[:1] + TEXTS[-4:]))
    assert fake.requests == 0
    assert [d.chosen for d in again] == [d.chosen for d in first]
    assert all(d.detail["cached"] for d in again)


@pytest.mark.slow
def test_the_cap_holds_with_workers(make_selector, tmp_path: Path) -> None:
    texts = [f"merge pdf number {i} please" for i in range(60)]
    with FakeOpenAI(latency_s=0.05) as fake:
        cap = spend_cap(make_selector, fake, tmp_path / "sizer", texts[0], 12.5)
        sel = make_selector(
            concurrency=8,
            api_base=fake.base_url,
            max_cost_usd=cap,
            params={"max_tokens": MAX_TOKENS},
            processes=2,
        )
        decisions = sel.select(queries(texts))
        with pytest.raises(RunStopped, match="max_cost_usd"):
            sel.select(queries(texts[:1]))
        billed = sum(price(u["prompt_tokens"], u["completion_tokens"]) for u in fake.usages)
        largest = max(worst_case(b) for b in fake.bodies)
    assert billed <= cap + largest
    sent = [d for d in decisions if d.detail.get("error") != NOT_SENT]
    assert 4 <= len(sent) < len(texts) and all(d.kind == "invoke" for d in sent)


@pytest.mark.slow
def test_a_refused_key_stops_the_batch_at_once(make_selector, tmp_path: Path) -> None:
    texts = ["merge pdf [[401]]", *(f"weather in city {i}" for i in range(40))]
    with FakeOpenAI(latency_s=0.2) as fake:
        sel = make_selector(concurrency=4, api_base=fake.base_url, processes=2)
        with pytest.raises(ModelUnavailable) as raised:
            sel.select(queries(texts))
        sent = len(calls(fake.bodies))
    # Four calls at a time, the refused one among the first four: the calls still waiting
    # for a slot when the refusal comes back are cancelled, never sent.
    assert sent < len(texts) // 2
    assert raised.value.kind == "authentication" and raised.value.status == 401
    assert SECRET not in str(raised.value)


def test_the_processes_flag_sets_every_litellm_selector(tmp_path: Path) -> None:
    selector = {"type": "litellm", "name": "m", "model": "openai/x", "processes": 1}
    path = write_project(tmp_path, [{"id": "r0", "text": "hi"}], selector)
    config = with_processes(load_config(path), 4)
    assert [s.params["processes"] for s in config.selectors] == [4]
    assert config.config_hash() == load_config(path).config_hash()  # pacing, not results
    with pytest.raises(SkillbenchError, match="at least 1"):
        with_processes(load_config(path), 0)
    oracle = write_project(tmp_path / "o", [{"id": "r0", "text": "hi"}], {"type": "oracle"})
    assert with_processes(load_config(oracle), 2) == load_config(oracle)


def worker_pids(parent: int | None = None) -> list[int]:
    """The model workers of ``parent`` (default: this process), from /proc (Linux)."""
    parent = os.getpid() if parent is None else parent
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().decode(errors="replace")
            stat = (cmdline.parent / "stat").read_text()
        except OSError:
            continue
        if "_workers import serve" in text and int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            found.append(int(cmdline.parent.name))
    return found


@pytest.mark.slow
def test_a_killed_worker_fails_its_calls_instead_of_hanging(make_selector, tmp_path) -> None:
    texts = [f"weather in city {i}" for i in range(12)]
    with FakeOpenAI(latency_s=1.0) as fake:
        others = set(worker_pids())  # other tests' pools, left alone
        sel = make_selector(api_base=fake.base_url, processes=3, timeout=30)
        sel.select(queries(["merge pdf files"]))  # workers up, pre-flight done
        mine = set(worker_pids()) - others
        killer = threading.Timer(0.5, lambda: [os.kill(p, signal.SIGKILL) for p in mine])
        killer.start()
        with pytest.raises(SkillbenchError, match=r"model worker process \S+ exited"):
            sel.select(queries(texts))
    assert len(mine) == 3


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_ctrl_c_hangs_up_every_workers_calls(tmp_path: Path) -> None:
    """``-j 4`` over two worker processes: each worker holds two calls the server never
    answers (``[[hang]]``); Ctrl-C ends the run with 130, all four connections are hung up,
    no call is answered and both workers exit."""
    texts = [f"merge the pdf files [[hang]] part {i}" for i in range(8)]
    selector = fake_selector("", timeout=300, processes=2)
    with FakeOpenAI(hang_s=120) as fake:
        selector["api_base"] = fake.base_url
        rows = [{"id": f"q{i}", "text": text} for i, text in enumerate(texts)]
        config = write_project(tmp_path, rows, selector, budgets=[4000], orderings=["alpha"])
        env = {**os.environ, KEY_ENV: SECRET, "SKILLBENCH_CACHE_DIR": str(tmp_path / "cache")}
        run_dir = tmp_path / "run"
        command = [sys.executable, "-m", "skillbench", "run", str(config), "-o", str(run_dir)]
        proc = subprocess.Popen([*command, "-q", "-j", "4"], env=env, stderr=subprocess.PIPE)
        try:
            assert wait_for(lambda: len(calls(fake.bodies)) == 4, 120), fake.bodies
            workers = worker_pids(proc.pid)
            assert len(workers) == 2
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=30) == 130
            assert wait_for(lambda: fake.disconnects == 4, 10), fake.disconnects
            assert wait_for(lambda: not any(map(running, workers)), 10)
            assert len(calls(fake.bodies)) == 4
            assert [body for body, _ in fake.answered if not is_probe(body)] == []
        finally:
            if proc.poll() is None:
                proc.kill()
    status = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))["status"]
    assert status == "interrupted"
