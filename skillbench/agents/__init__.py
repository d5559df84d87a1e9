"""The shipped agents themselves: run their CLIs offline and read what they send.

Importing the package registers Claude Code, Codex, Gemini CLI, GitHub Copilot CLI, Qwen Code
and opencode in ``AGENTS``. ``installed_agents`` and ``check_agent`` tell whether the installed
releases still list as skillbench renders.
"""

from skillbench.agents import (  # noqa: F401  (register)
    _claude_code,
    _codex,
    _copilot_cli,
    _gemini_cli,
    _opencode,
    _qwen_code,
)
from skillbench.agents._bridge import Bridge, BridgeCall, Upstream, Wire, responses_tools
from skillbench.agents._capture import (
    Capture,
    Turn,
    capture_agent,
    kill_running_agents,
    map_agent_turns,
    run_turn,
    store_snapshot,
)
from skillbench.agents._drift import (
    PROBE,
    PROBE_USAGE,
    AgentCheck,
    Installed,
    check_agent,
    check_all,
    installed_agents,
    likely_cause,
)
from skillbench.agents._fidelity import (
    AgentFidelity,
    Comparison,
    RenderInputs,
    agent_fidelity,
    compare_capture,
    compare_text,
    render_capture,
    render_inputs,
)
from skillbench.agents._install import install_notes
from skillbench.agents._listing_check import LISTING_PARSERS, ListingEntry, listing_difference
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
    STRICT_VARIABLE,
    AgentSpec,
    Workspace,
    agent_available,
    agent_version,
    bin_variable,
    find_executable,
    unverified_note,
    verified_versions,
)
from skillbench.agents._template import fill_template, make_template
from skillbench.agents._warm import WARM_AGENTS, WarmAgent, warm_agent

__all__ = [
    "AGENTS",
    "LISTING_PARSERS",
    "PROBE",
    "PROBE_USAGE",
    "SESSION_AGENTS",
    "STRICT_VARIABLE",
    "WARM_AGENTS",
    "AgentCheck",
    "AgentFidelity",
    "AgentSpec",
    "Bridge",
    "BridgeCall",
    "Capture",
    "ClaudeCodeSession",
    "Comparison",
    "Installed",
    "ListingEntry",
    "Recorded",
    "Recorder",
    "RenderInputs",
    "Reply",
    "Responder",
    "Role",
    "Script",
    "Session",
    "SessionAgent",
    "SessionRequest",
    "Turn",
    "Upstream",
    "WarmAgent",
    "Wire",
    "Workspace",
    "agent_available",
    "agent_fidelity",
    "agent_version",
    "bin_variable",
    "capture_agent",
    "check_agent",
    "check_all",
    "compare_capture",
    "compare_text",
    "fill_template",
    "find_executable",
    "install_notes",
    "installed_agents",
    "kill_running_agents",
    "likely_cause",
    "listing_difference",
    "make_template",
    "map_agent_turns",
    "objects",
    "render_capture",
    "render_inputs",
    "responses_tools",
    "run_session",
    "run_turn",
    "store_snapshot",
    "unverified_note",
    "verified_versions",
    "warm_agent",
]
