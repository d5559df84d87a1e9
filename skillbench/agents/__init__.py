"""The shipped agents themselves: run their CLIs offline and read what they send.

Importing the package registers Claude Code and Codex in ``AGENTS``.
"""

from skillbench.agents import _claude_code, _codex  # noqa: F401  (register)
from skillbench.agents._bridge import Bridge, BridgeCall, Upstream, Wire, responses_tools
from skillbench.agents._capture import (
    Capture,
    Turn,
    capture_agent,
    kill_running_agents,
    run_turn,
    store_snapshot,
)
from skillbench.agents._fidelity import AgentFidelity, Comparison, agent_fidelity, compare_text
from skillbench.agents._recorder import Recorded, Recorder, Reply, Responder, objects
from skillbench.agents._session import (
    SESSION_AGENTS,
    ClaudeCodeSession,
    Role,
    Script,
    Session,
    SessionAgent,
    SessionRequest,
    run_session,
)
from skillbench.agents._spec import (
    AGENTS,
    AgentSpec,
    Workspace,
    agent_available,
    agent_version,
    find_executable,
)
from skillbench.agents._template import fill_template, make_template

__all__ = [
    "AGENTS",
    "SESSION_AGENTS",
    "AgentFidelity",
    "AgentSpec",
    "Bridge",
    "BridgeCall",
    "Capture",
    "ClaudeCodeSession",
    "Comparison",
    "Recorded",
    "Recorder",
    "Reply",
    "Responder",
    "Role",
    "Script",
    "Session",
    "SessionAgent",
    "SessionRequest",
    "Turn",
    "Upstream",
    "Wire",
    "Workspace",
    "agent_available",
    "agent_fidelity",
    "agent_version",
    "capture_agent",
    "compare_text",
    "fill_template",
    "find_executable",
    "kill_running_agents",
    "make_template",
    "objects",
    "responses_tools",
    "run_session",
    "run_turn",
    "store_snapshot",
]
