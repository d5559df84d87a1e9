"""The live selector's warm processes: the same decisions as one process per decision, from
fewer CLI starts, where the listing holds still; cold turns where it follows usage.

A wrapper around the CLI logs the first argument of each start, so the test counts agent
turns (``-p`` for Claude Code, ``exec`` or ``app-server`` for Codex) apart from the version
query. Each run asks 8 requests and 4 positive controls (one per listed skill) at ``-j 2``,
and learns the agent's own skills once from a turn with nothing installed.

Claude Code's verified drop rule (least used first) reads usage, so each request of its cell
waits for the decisions before it; its fixed-order cell here takes the alphabetical fill,
which with nothing cut lists the same.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from skillbench.agents import AGENTS, bin_variable, find_executable
from skillbench.results import read_run
from tests.agents.test_live_selector import _decisions, _expected, _run, _setup, script
from tests.support.fake_openai import FakeOpenAI

REQUESTS = 8
FIXED = {"claude-code": "{name: claude-code, drop_rule: alpha_greedy}", "codex": "codex"}
"""Per agent, a profile whose cell's listings are known before any decision."""


def _counting_wrapper(root: Path, agent: str, crash: bool = False) -> tuple[Path, Path]:
    """A CLI wrapper logging each start's first argument, and its log; with ``crash``, a
    warm start exits at once."""
    log = root / "starts.log"
    wrapper = root / f"{agent}-counted"
    warm = 'case " $* " in *" app-server "*|*" stream-json "*) exit 3;; esac\n' if crash else ""
    real = find_executable(AGENTS.get(agent))
    wrapper.write_text(f'#!/bin/sh\necho "$1" >> "{log}"\n{warm}exec "{real}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return wrapper, log


def _turns(log: Path) -> int:
    return sum(1 for line in log.read_text().splitlines() if line != "--version")


def _live(
    root: Path,
    agent: str,
    url: str,
    mode: str,
    monkeypatch: pytest.MonkeyPatch,
    ordering: str,
    profile: str,
) -> int:
    """Agent turns started for one live run in ``root``; its decisions must be the script's."""
    root.mkdir()
    wrapper, log = _counting_wrapper(root, agent)
    monkeypatch.setenv(bin_variable(agent), str(wrapper))
    config = _setup(root, agent, url, REQUESTS, f", model: openai/fake, warm: {mode}")
    text = config.read_text().replace("orderings: [alpha]", f"orderings: [{ordering}]")
    config.write_text(text.replace(f"profiles: [{agent}]", f"profiles: [{profile}]"))
    assert _run(config) == 0
    assert _decisions(root / "out") == _expected(REQUESTS)
    return _turns(log)


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_fixed_order_cell_decides_alike_from_fewer_processes(
    agent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI(policy=script) as fake:
        counts = {
            mode: _live(
                tmp_path / mode, agent, fake.base_url, mode, monkeypatch, "alpha", FIXED[agent]
            )
            for mode in ("off", "auto")
        }
    # Cold: 8 requests + 4 controls + 1 turn learning the agent's own skills. Warm: the 8
    # requests share one listing, split over the 2 workers (2 processes); so do the 4
    # controls (2 more); plus the same learning turn.
    assert counts == {"off": 13, "auto": 5}


@pytest.mark.agents("claude-code")
def test_a_usage_ordered_cell_asks_its_requests_cold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each request's listing (and seeded usage) follows the decisions before it, so each is
    asked alone, cold; the controls, asked after the replay against the final listing,
    still share processes. (Codex lists in its own order whatever the cell's usage, so its
    listing never follows usage.)"""
    agent = "claude-code"
    with FakeOpenAI(policy=script) as fake:
        turns = _live(tmp_path / "usage", agent, fake.base_url, "auto", monkeypatch, "usage", agent)
    assert turns == REQUESTS + 2 + 1


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_warm_process_that_dies_errs_one_request_and_the_rest_run_cold(
    agent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every warm start exits at once. The 8 requests (in the replay's order) split over 2
    workers into two parts of 4: the first of each part is an error naming the warm
    process, the other 6 are the script's decisions from cold turns (no controls here)."""
    wrapper, log = _counting_wrapper(tmp_path, agent, crash=True)
    monkeypatch.setenv(bin_variable(agent), str(wrapper))
    with FakeOpenAI(policy=script) as fake:
        config = _setup(tmp_path, agent, fake.base_url, REQUESTS, ", model: openai/fake")
        text = config.read_text().replace(f"profiles: [{agent}]", f"profiles: [{FIXED[agent]}]")
        config.write_text(text + "controls: {per_cell: 0}\n")
        _run(config)
    rows = {r.request_id: r for r in read_run(tmp_path / "out").rows}
    errors = [i for i, r in rows.items() if r.outcome == "error"]
    assert len(rows) == REQUESTS and len(errors) == 2
    assert all("warm process" in str(rows[i].detail["error"]) for i in errors)
    expected = _expected(REQUESTS)
    assert {i: r.chosen for i, r in rows.items() if i not in errors} == {
        i: c for i, c in expected.items() if i not in errors
    }
    # 2 warm starts that died, 6 cold turns, 1 turn learning the agent's own skills.
    assert _turns(log) == 9
