"""The shipped agents as records: one ``AgentSpec`` per agent, registered by name.

Importing the package registers Claude Code, Codex, Gemini CLI, GitHub Copilot CLI, Qwen Code,
opencode, Kilo Code CLI, Pi, Cline CLI, OpenHarness and Deep Agents Code in ``AGENT_SPECS``; a
plugin registers another with ``register_agent``. Every other view of an agent (its profile and
releases, loading rules, capture driver, the live selector's tables, the folders portability
checks) is derived from its record.
"""

from skillbench.agentspec import (  # noqa: F401  (register)
    _claude_code,
    _cline,
    _codex,
    _copilot_cli,
    _deepagents_code,
    _gemini_cli,
    _kilo_code,
    _opencode,
    _openharness,
    _pi,
    _qwen_code,
)
from skillbench.agentspec._claude_code import CLAUDE_CODE
from skillbench.agentspec._cline import CLINE
from skillbench.agentspec._codex import CODEX, CodexRules, ModelWindow
from skillbench.agentspec._copilot_cli import COPILOT_CLI
from skillbench.agentspec._deepagents_code import DEEPAGENTS_CODE
from skillbench.agentspec._gemini_cli import GEMINI_CLI
from skillbench.agentspec._kilo_code import KILO_CODE
from skillbench.agentspec._opencode import OPENCODE
from skillbench.agentspec._openharness import OPENHARNESS
from skillbench.agentspec._pi import PI
from skillbench.agentspec._qwen_code import QWEN_CODE
from skillbench.agentspec._registry import AGENT_SPECS, register_agent
from skillbench.agentspec._types import (
    AgentSpec,
    ApiShape,
    BuiltinPlace,
    Delegate,
    Detail,
    Escape,
    ExplicitForm,
    FirstLineCut,
    Label,
    Launch,
    ListingFormat,
    Live,
    Location,
    Locator,
    Order,
    Overflow,
    Package,
    Placement,
    Region,
    Release,
    Sessions,
    Shadow,
    SkillFolder,
    Wire,
)

__all__ = [
    "AGENT_SPECS",
    "CLAUDE_CODE",
    "CLINE",
    "CODEX",
    "COPILOT_CLI",
    "DEEPAGENTS_CODE",
    "GEMINI_CLI",
    "KILO_CODE",
    "OPENCODE",
    "OPENHARNESS",
    "PI",
    "QWEN_CODE",
    "AgentSpec",
    "ApiShape",
    "BuiltinPlace",
    "CodexRules",
    "Delegate",
    "Detail",
    "Escape",
    "ExplicitForm",
    "FirstLineCut",
    "Label",
    "Launch",
    "ListingFormat",
    "Live",
    "Location",
    "Locator",
    "ModelWindow",
    "Order",
    "Overflow",
    "Package",
    "Placement",
    "Region",
    "Release",
    "Sessions",
    "Shadow",
    "SkillFolder",
    "Wire",
    "register_agent",
]
