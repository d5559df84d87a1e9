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

import json
import stat
from pathlib import Path

import pytest

from skillbench.agents import AGENTS, bin_variable, find_executable
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.listing import render_listing
from skillbench.results import read_run
from skillbench.types import LISTING_MISMATCH
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
    # requests share one listing, split over the 2 workers (2 processes); the 4 controls,
    # split alike, take those 2 from the selector's pool; plus the same learning turn.
    assert counts == {"off": 13, "auto": 3}


def _cutting_budget(root: Path) -> int:
    """A budget two characters short of the cell's whole listing at 4 skills: Claude Code's
    least-used rule must drop a description, and which one follows the usage so far."""
    catalog = load_catalog([SourceSpec(str(root / "skills"), "project")], profile="claude-code")
    used = render_listing(catalog.skills, profile="claude-code", ordering="claude-code").used
    assert used is not None
    cut = render_listing(
        catalog.skills, profile="claude-code", ordering="claude-code", budget=used - 2
    )
    assert [e.status for e in cut.shown].count("name_only") == 1
    return used - 2


@pytest.mark.agents("claude-code")
def test_a_usage_ordered_cell_decides_alike_from_one_pooled_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each request's listing follows the decisions before it (its budget cuts a
    description), so the run sends one request at a time. Warm, they all go to one pooled
    process whose usage history is rewritten before each: every row (decision, outcome,
    and the check of the listing the agent sent against the cell's) is the cold run's, from
    1 + 2 processes (the controls' two parts) against one per request cold."""
    agent = "claude-code"
    rows: dict[str, list[dict]] = {}
    counts = {}
    with FakeOpenAI(policy=script) as fake:
        for mode in ("off", "auto"):
            root = tmp_path / mode
            root.mkdir()
            wrapper, log = _counting_wrapper(root, agent)
            monkeypatch.setenv(bin_variable(agent), str(wrapper))
            config = _setup(
                root, agent, fake.base_url, REQUESTS, f", model: openai/fake, warm: {mode}"
            )
            budget = _cutting_budget(root)
            text = config.read_text().replace("orderings: [alpha]", "orderings: [claude-code]")
            config.write_text(text.replace("budgets: [null]", f"budgets: [{budget}]"))
            assert _run(config) == 0
            assert _decisions(root / "out") == _expected(REQUESTS)
            rows[mode] = [json.loads(x) for x in (root / "out" / "results.jsonl").open()]
            counts[mode] = _turns(log)

    def seen(mode: str) -> list[tuple[object, ...]]:
        keys = ("request_id", "chosen", "outcome")
        found = [(*(r[k] for k in keys), r["detail"].get(LISTING_MISMATCH)) for r in rows[mode]]
        return sorted(found, key=str)

    assert seen("off") == seen("auto")
    # Cold: 8 requests + 4 controls + 1 learning turn; warm: one process for the requests,
    # the controls' two parts take it and one more, and the learning turn.
    assert counts == {"off": REQUESTS + 4 + 1, "auto": 3}


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
