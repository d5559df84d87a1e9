"""Tests that run a shipped agent CLI: skipped where it is missing, failed where CI needs it.

A test says which CLI it runs with the ``agents`` mark, and the mark alone does the gating
(``tests/conftest.py`` checks it before any fixture is set up):

- ``@pytest.mark.agents("codex")`` (or ``@needs_agent("codex")``) for one agent;
- a bare ``@pytest.mark.agents`` on a test parametrized by ``agent``: the parameter names it.

A mark that names no agent fails the test, so no test can be marked and still run ungated.
CI installs the pinned CLIs (``.ci/run``) and sets ``SKILLBENCH_REQUIRE_AGENTS=1``, so a
missing or wrong-version CLI there fails the suite instead of skipping the fidelity tests.
"""

from __future__ import annotations

import os

import pytest

from skillbench.agents import AGENTS, agent_available, agent_version, find_executable

REQUIRE = os.environ.get("SKILLBENCH_REQUIRE_AGENTS", "") not in ("", "0", "false")


def require_agent(name: str) -> None:
    """Skip (or, under ``SKILLBENCH_REQUIRE_AGENTS``, fail) unless ``name``'s CLI is
    installed at the version its profile was verified against."""
    if agent_available(name):
        return
    spec = AGENTS.get(name)
    try:
        found = agent_version(find_executable(spec))
    except Exception as exc:  # the reason is the message
        found = str(exc)
    reason = f"{name} {spec.verified_version} is not installed ({found})"
    if REQUIRE:
        pytest.fail(reason)
    pytest.skip(reason)


def needs_agent(name: str) -> pytest.MarkDecorator:
    """The ``agents`` mark naming ``name``: ``-m agents`` selects the test, and it runs only
    where ``name``'s CLI is installed."""
    return pytest.mark.agents(name)


def marked_agents(item: pytest.Item) -> list[str] | None:
    """The agents an ``agents``-marked test runs (its mark's names, else its ``agent``
    parameter); ``None`` for a test without the mark.

    Raises:
        pytest.fail.Exception: the test is marked but names no agent.
    """
    mark = item.get_closest_marker("agents")
    if mark is None:
        return None
    names = [str(a) for a in mark.args]
    callspec = getattr(item, "callspec", None)
    if not names and callspec is not None and "agent" in callspec.params:
        names = [str(callspec.params["agent"])]
    if not names:
        pytest.fail(f"{item.nodeid}: @pytest.mark.agents names no agent and has no `agent` param")
    return names
