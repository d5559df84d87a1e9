"""Positive controls and listing checks of live cells: the shipped CLIs against the fake model.

Each live cell gets one control per listed skill (four, under the default five) in the
agent's explicit form. A model that never calls a tool fails them all and the run ends
incomplete; the script that takes a named skill passes them, and its cell's listings match
the render. A wrapper around the CLI that adds a user skill the catalog does not hold
(only in turns that install skills, so not in the turn that learns the agent's own) makes
every decision a listing mismatch.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from skillbench.agents import (
    AGENTS,
    agent_version,
    bin_variable,
    capture_agent,
    find_executable,
    store_snapshot,
)
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.listing import render_listing
from skillbench.results import read_run
from tests.agents.test_live_selector import SKILLS, _run, _setup, never, script
from tests.support.fake_openai import FakeOpenAI

EXTRA = "extra-notes"
USED = {"pdf-tools": 1.0}
"""The usage after the first request (it triggers pdf-tools)."""
LONG = (
    "It covers every step a careful engineer would take: checking inputs, running the tools, "
    "reporting what changed and noting what is left to do."
)
"""A description long enough that a budget fits some of them only."""
FOLDER = {"claude-code": ".claude/skills", "codex": ".agents/skills"}
"""Per agent: the skills folder, in the project a live turn installs into and under HOME."""


def _wrapper(root: Path, agent: str) -> Path:
    """A CLI wrapper that puts the extra skill in HOME when the project holds skills."""
    folder = FOLDER[agent]
    wrapper = root / f"{agent}-with-extra"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'if [ -d "{folder}" ]; then\n'
        f'  mkdir -p "$HOME/{folder}/{EXTRA}"\n'
        f'  cat > "$HOME/{folder}/{EXTRA}/SKILL.md" <<"SKILL"\n'
        f"---\nname: {EXTRA}\ndescription: Notes the catalog does not hold.\n---\nBody.\n"
        "SKILL\n"
        "fi\n"
        f'exec "{find_executable(AGENTS.get(agent))}" "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return wrapper


def _config(tmp_path: Path, agent: str, url: str) -> Path:
    return _setup(tmp_path, agent, url, 4, ", model: openai/fake")


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_model_that_never_triggers_fails_the_controls_of_every_live_cell(
    agent: str, tmp_path: Path
) -> None:
    with FakeOpenAI(policy=never) as fake:
        assert _run(_config(tmp_path, agent, fake.base_url)) == 1
    run = read_run(tmp_path / "out")
    assert run.status == "incomplete"
    (cell,) = run.summary.cells
    assert cell.controls is not None and cell.controls.status == "controls_failed"
    assert (cell.controls.n, cell.controls.triggered) == (4, 0)
    # Scored: r00, r02 missed; r01, r03 rightly left alone. Controls stay out of it.
    assert cell.n == 4 and cell.metric("accuracy") == 0.5
    assert cell.outcomes["missed"] == 2


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_model_that_takes_named_skills_passes_and_its_listings_match(
    agent: str, tmp_path: Path
) -> None:
    with FakeOpenAI(policy=script) as fake:
        assert _run(_config(tmp_path, agent, fake.base_url)) == 0
    run = read_run(tmp_path / "out")
    assert run.status == "complete"
    (cell,) = run.summary.cells
    assert cell.controls is not None
    assert (cell.controls.n, cell.controls.triggered, cell.controls.status) == (4, 4, "passed")
    assert sorted(r.chosen for r in run.controls) == sorted(SKILLS)
    assert cell.n == 4 and cell.metric("accuracy") == 1.0
    assert cell.listing_mismatches == 0
    assert all(r.listing_mismatch is None for r in run.rows)


@pytest.mark.agents
@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_an_extra_skill_the_agent_finds_flags_every_decision(
    agent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(bin_variable(agent), str(_wrapper(tmp_path, agent)))
    with FakeOpenAI(policy=script) as fake:
        assert _run(_config(tmp_path, agent, fake.base_url)) == 0
    run = read_run(tmp_path / "out")
    (cell,) = run.summary.cells
    assert cell.listing_mismatches == 4
    assert all(EXTRA in (r.listing_mismatch or "") for r in [*run.rows, *run.controls])


@pytest.mark.agents("claude-code")
def test_claude_codes_usage_store_is_seeded_so_an_overflowing_listing_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a budget where one use of pdf-tools changes which descriptions fit (the middle
    one of those found by rendering, before any live turn), every live decision lists what
    the cell rendered: the agent's usage store holds the cell's history. The cell renders
    with the installed release's rules and its snapshot (captured first), so its budget is
    shared with the agent's built-in skills as the agent shares it."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(cache))
    store_snapshot(capture_agent("claude-code"), cache)
    with FakeOpenAI(policy=script) as fake:
        config = _config(tmp_path, "claude-code", fake.base_url)
        for name in SKILLS:
            (tmp_path / "skills" / name / "SKILL.md").write_text(
                f"---\nname: {name}\ndescription: Handles {name} work. {LONG}\n---\nBody.\n"
            )
        profile = f"claude-code@{agent_version(find_executable(AGENTS.get('claude-code')))}"
        source = SourceSpec(str(tmp_path / "skills"), "project")
        skills = load_catalog([source], profile=profile).skills

        def render(budget: int, scores: dict[str, float]) -> str:
            listing = render_listing(
                skills, profile=profile, budget=budget, ordering="alpha", scores=scores
            )
            return listing.text

        budgets = [b for b in range(100, 20000, 100) if render(b, {}) != render(b, USED)]
        budget = budgets[len(budgets) // 2]
        text = config.read_text().replace("budgets: [null]", f"budgets: [{budget}]")
        text = text.replace("profiles: [claude-code]", f"profiles: [{profile}]")
        config.write_text(text + "controls: {per_cell: 0}\n")
        assert _run(config) == 0
    run = read_run(tmp_path / "out")
    (cell,) = run.summary.cells
    assert [r.request_id for r in run.rows if r.chosen] == ["r00", "r02"]
    assert cell.listing_mismatches == 0, [r.listing_mismatch for r in run.rows]
