"""The shipped agents themselves: run their CLIs offline and read what they send.

Importing the package registers Claude Code and Codex in ``AGENTS``.
"""

from skillbench.agents import _claude_code, _codex  # noqa: F401  (register)
from skillbench.agents._capture import Capture, capture_agent, store_snapshot
from skillbench.agents._recorder import Recorded, Recorder, Reply, Responder
from skillbench.agents._spec import (
    AGENTS,
    AgentSpec,
    Workspace,
    agent_available,
    agent_version,
    find_executable,
)

__all__ = [
    "AGENTS",
    "AgentSpec",
    "Capture",
    "Recorded",
    "Recorder",
    "Reply",
    "Responder",
    "Workspace",
    "agent_available",
    "agent_version",
    "capture_agent",
    "find_executable",
    "store_snapshot",
]
