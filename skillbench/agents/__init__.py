"""The shipped agents themselves: run their CLIs offline and read what they send.

Importing the package registers Claude Code, Codex, Gemini CLI and GitHub Copilot CLI in ``AGENTS``.
"""

from skillbench.agents import (  # noqa: F401  (register)
    _claude_code,
    _codex,
    _copilot_cli,
    _gemini_cli,
)
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
from skillbench.agents._recorder import Recorded, Recorder, Reply, Responder
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
    "AgentFidelity",
    "AgentSpec",
    "Bridge",
    "BridgeCall",
    "Capture",
    "Comparison",
    "Recorded",
    "Recorder",
    "Reply",
    "Responder",
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
    "responses_tools",
    "run_turn",
    "store_snapshot",
]
