"""Every known agent, by name: the built-in ones and any a plugin registers."""

from skillbench._plugins import instance_of
from skillbench._registry import Registry
from skillbench.agentspec._types import AgentSpec

AGENT_SPECS: Registry[AgentSpec] = Registry("agent", adopt=instance_of(AgentSpec))
"""Agent name → its record. The profiles, loading rules and capture drivers of every agent
are derived from it (``Registry.watch``)."""


def register_agent(spec: AgentSpec) -> AgentSpec:
    """Register ``spec`` under its name: its profile (each release), loading rules and
    capture driver follow wherever skillbench looks them up."""
    return AGENT_SPECS.register(spec.name)(spec)
