"""The ``agent`` selector's parameters (what it knows of each agent is in the agent's record)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from skillbench.agentspec import AGENT_SPECS
from skillbench.selectors._params import positive_int_param, str_param


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError("expected a positive number")
    return float(value)


def _agent(value: Any) -> str:
    known = AGENT_SPECS.names()
    if value not in known:
        raise ValueError(f"expected one of {', '.join(known)}")
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
