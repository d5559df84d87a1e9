"""Every known agent, by name: the built-in ones and any a plugin registers."""

from collections.abc import Iterable
from importlib import import_module
from pkgutil import iter_modules

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


def import_own_rules(package: str, path: Iterable[str]) -> None:
    """Import each module of ``package`` named after a registered agent (``_my_agent`` for
    ``my-agent``): an agent's own rules register themselves when imported, so a package
    holding some imports them without naming the agents."""
    for module in iter_modules(path):
        if module.name.removeprefix("_").replace("_", "-") in AGENT_SPECS:
            import_module(f"{package}.{module.name}")


def default_agents() -> list[AgentSpec]:
    """The agents a command takes when none is named (``AgentSpec.default``), in the order
    they were registered; help texts show the first in their examples."""
    return [spec for spec in AGENT_SPECS.values() if spec.default]
