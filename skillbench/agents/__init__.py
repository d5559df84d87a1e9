"""The shipped agents themselves: run their CLIs offline and read what they send.

Every agent with a record (``skillbench.agentspec``) gets a capture driver in ``AGENTS``: the
generic ``AgentDriver``, or its own class where its record cannot say everything (its
``own_rules``, in a module named after it). ``installed_agents`` and ``check_agent`` tell
whether the installed releases still list as skillbench renders.
"""

from skillbench.agents import (  # noqa: F401  (register)
    _wire_anthropic,
    _wire_chat,
    _wire_generate_content,
    _wire_responses,
)
from skillbench.agents._bridge import Bridge, BridgeCall
from skillbench.agents._capture import (
    Capture,
    Turn,
    capture_agent,
    kill_running_agents,
    map_agent_turns,
    run_turn,
    store_snapshot,
)
from skillbench.agents._conversation import (
    CONVERSATIONS,
    Block,
    ConversationReader,
    conversation,
    tool_name,
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
from skillbench.agents._driver import AGENTS, OWN_DRIVERS, AgentDriver, driver_of, find_block
from skillbench.agents._executable import (
    STRICT_VARIABLE,
    agent_available,
    agent_version,
    bin_variable,
    find_executable,
    unverified_note,
    verified_versions,
)
from skillbench.agents._fidelity import (
    AgentFidelity,
    RenderInputs,
    TextComparison,
    agent_fidelity,
    compare_capture,
    compare_text,
    failed_as_predicted,
    render_capture,
    render_inputs,
)
from skillbench.agents._install import install_notes
from skillbench.agents._listing_check import (
    OWN_PARSERS,
    ListingEntry,
    listing_difference,
    listing_entries,
)
from skillbench.agents._recorder import Recorder, Responder
from skillbench.agents._request_template import fill_template, make_template
from skillbench.agents._session import (
    SESSION_AGENTS,
    Role,
    Script,
    Session,
    SessionAgent,
    SessionRequest,
    run_session,
)
from skillbench.agents._warm import WARM_PROTOCOLS, WarmAgent, WarmProtocol, warm_agent, warm_agents
from skillbench.agents._wire import (
    WIRES,
    Recorded,
    Relay,
    Reply,
    RequestText,
    Upstream,
    WireFormat,
    objects,
    wire_of,
)
from skillbench.agents._wire_responses import responses_tools
from skillbench.agents._workspace import Workspace
from skillbench.agentspec import AGENT_SPECS, AgentSpec, import_own_rules


def _add_driver(name: str, spec: AgentSpec) -> None:
    AGENTS.register(name)(driver_of(spec))


def _remove_driver(name: str, spec: AgentSpec) -> None:
    AGENTS.remove(name)


import_own_rules(__name__, __path__)
AGENT_SPECS.watch(_add_driver, _remove_driver)

__all__ = [
    "AGENTS",
    "CONVERSATIONS",
    "OWN_DRIVERS",
    "OWN_PARSERS",
    "PROBE",
    "PROBE_USAGE",
    "SESSION_AGENTS",
    "STRICT_VARIABLE",
    "WARM_PROTOCOLS",
    "WIRES",
    "AgentCheck",
    "AgentDriver",
    "AgentFidelity",
    "Block",
    "Bridge",
    "BridgeCall",
    "Capture",
    "ConversationReader",
    "Installed",
    "ListingEntry",
    "Recorded",
    "Recorder",
    "Relay",
    "RenderInputs",
    "Reply",
    "RequestText",
    "Responder",
    "Role",
    "Script",
    "Session",
    "SessionAgent",
    "SessionRequest",
    "TextComparison",
    "Turn",
    "Upstream",
    "WarmAgent",
    "WarmProtocol",
    "WireFormat",
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
    "conversation",
    "driver_of",
    "failed_as_predicted",
    "fill_template",
    "find_block",
    "find_executable",
    "install_notes",
    "installed_agents",
    "kill_running_agents",
    "likely_cause",
    "listing_difference",
    "listing_entries",
    "make_template",
    "map_agent_turns",
    "objects",
    "render_capture",
    "render_inputs",
    "responses_tools",
    "run_session",
    "run_turn",
    "store_snapshot",
    "tool_name",
    "unverified_note",
    "verified_versions",
    "warm_agent",
    "warm_agents",
    "wire_of",
]
