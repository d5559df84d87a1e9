"""The ``agent`` selector's parameters and what it knows of each agent it drives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from skillbench.selectors._controls import ExplicitForm
from skillbench.selectors._params import positive_int_param, str_param

AgentName = Literal["claude-code", "codex", "copilot-cli", "gemini-cli", "opencode", "qwen-code"]
INSTALLABLE = {
    "claude-code": ("project", "user", "extra"),
    "codex": ("project", "user"),
    "copilot-cli": ("project", "user"),
    "gemini-cli": ("project", "user"),
    "opencode": ("project", "user", "extra"),
    "qwen-code": ("project", "user", "extra"),
}
"""Source kinds a live run can install for each agent (others stand for built-ins)."""
SKILL_TOOLS = {
    "claude-code": ("Skill", "skill"),
    "copilot-cli": ("skill", "skill"),
    "gemini-cli": ("activate_skill", "name"),
    "opencode": ("skill", "name"),
    "qwen-code": ("skill", "skill"),
}
"""Each agent's skill tool and the argument that names the skill; an agent without one
(Codex) triggers by reading a listed ``SKILL.md``."""
BUDGET_VARIABLE = {"claude-code": "SLASH_COMMAND_TOOL_CHAR_BUDGET"}
"""The agent's own setting for the listing budget, in characters."""
EXPLICIT_FORMS: dict[str, ExplicitForm] = {"codex": "mention"}
"""How a user names a skill outright in each agent (in words where not listed here)."""
USAGE_AGENTS = frozenset({"claude-code"})
"""Agents that keep a skill-usage history of their own, seeded from the cell's per request."""


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError("expected a positive number")
    return float(value)


def _agent(value: Any) -> str:
    if value not in INSTALLABLE:
        raise ValueError(f"expected one of {', '.join(INSTALLABLE)}")
    return str(value)


WarmMode = Literal["auto", "off"]


def _warm(value: Any) -> WarmMode:
    """``auto`` or ``off``; YAML reads a bare ``off`` as false (and ``on`` as true)."""
    if value == "auto" or value is True:
        return "auto"
    if value == "off" or value is False:
        return "off"
    raise ValueError("expected 'auto' or 'off'")


def _wire(value: Any) -> str:
    if value not in ("chat", "native"):
        raise ValueError("expected 'chat' or 'native'")
    return str(value)


SPEC = {
    "agent": (_agent, None),
    "model": (str_param, None),
    "api_base": (str_param, None),
    "api_key_env": (str_param, None),
    "wire": (_wire, "chat"),
    "timeout": (_number, 300.0),
    "max_tokens": (positive_int_param, 1024),
    "temperature": (lambda v: float(v), 0.0),
    "max_cost_usd": (_number, None),
    "cache": (bool, True),
    "warm": (_warm, "auto"),
}


@dataclass(frozen=True)
class AgentParams:
    """The selector's parameters, checked."""

    agent: str
    model: str
    api_base: str | None
    api_key_env: str | None
    wire: str
    timeout: float
    max_tokens: int
    temperature: float
    max_cost_usd: float | None
    cache: bool
    warm: WarmMode
