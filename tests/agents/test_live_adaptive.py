"""Adaptive repeats and the per-cell dry run on live cells: the shipped CLIs with the scripted
loopback model of ``test_live_selector`` behind them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agents.test_live_selector import _expected, _setup, script
from tests.support.fake_openai import FakeOpenAI

MODEL = "openai/gpt-4o-mini"
"""A model the bundled price map prices, so the dry run has dollars to show."""


def _skillbench(cache: Path, *args: str) -> str:
    """``skillbench ARGS`` with ``cache`` as its cache (response cache, agent snapshots)."""
    env = {**os.environ, "SKILLBENCH_CACHE_DIR": str(cache)}
    argv = [sys.executable, "-m", "skillbench", *args]
    done = subprocess.run(argv, env=env, text=True, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_live_cell_stops_repeats_its_first_two_answers_settle(agent: str, tmp_path: Path) -> None:
    """The script answers each request the same way every time, so two repeats settle it:
    4 requests × 3 repeats ask 8 decisions and skip 4."""
    with FakeOpenAI(policy=script) as fake:
        config = _setup(tmp_path, agent, fake.base_url, 4, f", model: {MODEL}, cache: false")
        # no positive controls: the decisions counted are the requests' own
        extra = "repeats: 3\nrepeats_mode: adaptive\ncontrols: {per_cell: 0}\n"
        config.write_text(config.read_text() + extra)
        plan = _skillbench(tmp_path / "cache", "run", str(config), "--dry-run")
        assert fake.requests == 0
        out = tmp_path / "out"
        _skillbench(tmp_path / "cache", "run", str(config), "-o", str(out), "-j", "2", "-q")
    (line,) = [x for x in plan.splitlines() if f"/{agent}/" in x and "calls" in x]
    assert f"({MODEL}): 12 calls, ≥ ~" in line and "prompt tokens, ≥ ~$" in line
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert sorted((r["request_id"], r["repeat"]) for r in rows) == [
        (f"r{i:02d}", k) for i in range(4) for k in (0, 1)
    ]
    assert {r["request_id"]: r["chosen"] for r in rows} == _expected(4)
    assert all(r["detail"]["repeats_skipped"] == [2] for r in rows if r["repeat"] == 1)
    (cell,) = json.loads((out / "summary.json").read_text())["cells"]
    assert cell["repeats"]["skipped"] == 4 and cell["repeats"]["threshold_accuracy"] == 1.0


def _tokens(line: str) -> int:
    found = re.search(r"~([\d,]+) prompt tokens", line)
    assert found is not None, line
    return int(found.group(1).replace(",", ""))


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_captured_snapshot_adds_the_agents_own_prompt_to_the_dry_run(
    agent: str, tmp_path: Path
) -> None:
    """Without a snapshot a live cell's estimate is the listing and the request (a lower
    bound); with one it adds the agent's system prompt and tools, about 10,000 tokens a call
    for both agents (docs/agents.md, measured): well over 5,000 on each of the 4 calls."""
    config = _setup(tmp_path, agent, "http://127.0.0.1:9", 4, f", model: {MODEL}")
    config.write_text(config.read_text() + "controls: {per_cell: 0}\n")
    cache = tmp_path / "cache"
    before = _skillbench(cache, "run", str(config), "--dry-run")
    _skillbench(cache, "capture", agent, "-o", str(tmp_path / "capture"), "-q")
    after = _skillbench(cache, "run", str(config), "--dry-run")
    (low,) = [x for x in before.splitlines() if f"/{agent}/" in x and "calls" in x]
    (full,) = [x for x in after.splitlines() if f"/{agent}/" in x and "calls" in x]
    assert "≥" in low and "≥" not in full and ": 4 calls, ~" in full
    assert _tokens(full) - _tokens(low) > 4 * 5_000
