"""Tests that run a shipped agent CLI: skipped where it is missing, failed where CI needs it.

CI installs the pinned CLIs (``.ci/run``) and sets ``SKILLBENCH_REQUIRE_AGENTS=1``, so a
missing or wrong-version CLI there fails the suite instead of skipping the fidelity tests.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

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


def needs_agent(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Mark a test as one that runs ``name``'s real CLI (``-m agents`` selects them)."""

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(test)
        def wrapped(*args: object, **kwargs: object) -> None:
            require_agent(name)
            test(*args, **kwargs)

        return pytest.mark.agents(wrapped)

    return decorate
