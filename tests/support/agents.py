"""Tests that run a shipped agent CLI: skipped where it is missing, failed where CI needs it.

A test says which CLI it runs with the ``agents`` mark, and the mark alone does the gating
(``tests/conftest.py`` checks it before any fixture is set up):

- ``@pytest.mark.agents("codex")`` (or ``@needs_agent("codex")``) for one agent, and
  ``@needs_agent("codex", "0.171.0")`` (``codex@0.171.0``) for another release;
- a bare ``@pytest.mark.agents`` on a test parametrized by ``agent``: the parameter names it.

A mark that names no agent fails the test, so no test can be marked and still run ungated.
CI installs the pinned CLIs (``.ci/run``) and sets ``SKILLBENCH_REQUIRE_AGENTS=1``, so a
missing or wrong-version CLI there fails the suite instead of skipping the fidelity tests.
Another release of an agent is found through ``SKILLBENCH_<AGENT>_<VERSION>_BIN`` (for
example ``SKILLBENCH_CODEX_0_171_0_BIN``); CI installs the newest verified ones that way.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from skillbench.agents import (
    AGENTS,
    AgentFidelity,
    agent_available,
    agent_fidelity,
    agent_version,
    find_executable,
)
from skillbench.agentspec import AGENT_SPECS, AgentSpec, register_agent
from skillbench.catalog import SourceSpec

REQUIRE = os.environ.get("SKILLBENCH_REQUIRE_AGENTS", "") not in ("", "0", "false")


def executable(name: str, version: str | None = None) -> str:
    """The CLI of ``name`` at ``version`` (None: the pinned one, on PATH)."""
    spec = AGENTS.get(name)
    pinned = version is None or version == spec.pinned_version
    return find_executable(spec) if pinned else find_executable(spec, version)


def identical_at(
    name: str, version: str, sources: list[SourceSpec], **capture: object
) -> AgentFidelity:
    """Capture ``name`` ``version`` with ``sources`` and require skillbench's render of that
    release to equal what it sent, with nothing to note."""
    result = agent_fidelity(name, sources, executable=executable(name, version), **capture)
    assert result.version == version
    assert result.identical, "\n".join(result.lines[:20])
    assert not result.notes
    return result


def require_agent(name: str, version: str | None = None) -> None:
    """Skip (or, under ``SKILLBENCH_REQUIRE_AGENTS``, fail) unless ``name``'s CLI is
    installed at ``version`` (None: the pinned release its profile was verified against)."""
    if agent_available(name, version):
        return
    wanted = version or AGENTS.get(name).pinned_version
    try:
        found = agent_version(executable(name, version))
    except Exception as exc:  # the reason is the message
        found = str(exc)
    reason = f"{name} {wanted} is not installed ({found})"
    if REQUIRE:
        pytest.fail(reason)
    pytest.skip(reason)


def needs_agent(name: str, version: str | None = None) -> pytest.MarkDecorator:
    """The ``agents`` mark naming ``name`` (``name@version`` for another release than the
    pinned one): ``-m agents`` selects the test, and it runs only where that CLI is installed."""
    return pytest.mark.agents(f"{name}@{version}" if version else name)


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


@contextmanager
def agent_record(spec: AgentSpec) -> Iterator[AgentSpec]:
    """Within the block, ``spec`` is the record of its agent (its profiles, loading rules and
    driver follow); the registered record comes back after it."""
    old = AGENT_SPECS.remove(spec.name)
    try:
        yield register_agent(spec)
    finally:
        AGENT_SPECS.remove(spec.name)
        register_agent(old)
