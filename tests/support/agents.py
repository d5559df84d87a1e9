"""Tests that run a shipped agent CLI: skipped where it is missing, failed where CI needs it.

CI installs the pinned CLIs (``.ci/run``) and sets ``SKILLBENCH_REQUIRE_AGENTS=1``, so a
missing or wrong-version CLI there fails the suite instead of skipping the fidelity tests.
Another release of an agent is found through ``SKILLBENCH_<AGENT>_<VERSION>_BIN`` (for
example ``SKILLBENCH_CODEX_0_171_0_BIN``); CI installs the newest verified ones that way.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

import pytest

from skillbench.agents import (
    AGENTS,
    AgentFidelity,
    agent_available,
    agent_fidelity,
    agent_version,
    find_executable,
)
from skillbench.catalog import SourceSpec

REQUIRE = os.environ.get("SKILLBENCH_REQUIRE_AGENTS", "") not in ("", "0", "false")


def executable(name: str, version: str | None = None) -> str:
    """The CLI of ``name`` at ``version`` (None: the pinned one, on PATH)."""
    spec = AGENTS.get(name)
    pinned = version is None or version == spec.verified_version
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
    wanted = version or AGENTS.get(name).verified_version
    try:
        found = agent_version(executable(name, version))
    except Exception as exc:  # the reason is the message
        found = str(exc)
    reason = f"{name} {wanted} is not installed ({found})"
    if REQUIRE:
        pytest.fail(reason)
    pytest.skip(reason)


def needs_agent(
    name: str, version: str | None = None
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Mark a test as one that runs ``name``'s real CLI (``-m agents`` selects them)."""

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(test)
        def wrapped(*args: object, **kwargs: object) -> None:
            require_agent(name, version)
            test(*args, **kwargs)

        return pytest.mark.agents(wrapped)

    return decorate
