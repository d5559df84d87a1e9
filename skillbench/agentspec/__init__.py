"""The shipped agents as records: one ``AgentSpec`` per agent, registered by name.

Importing the package imports every module of it: each record module registers its agent in
``AGENT_SPECS`` (``skillbench agents`` lists them); a plugin registers another with
``register_agent``. Every other view of an agent (its profile and releases, loading rules,
capture driver, the live selector's tables, the folders portability checks) is derived from
its record.
"""

from importlib import import_module
from pkgutil import iter_modules

from skillbench.agentspec._registry import (
    AGENT_SPECS,
    default_agents,
    import_own_rules,
    register_agent,
)
from skillbench.agentspec._types import (
    AgentSpec,
    ApiShape,
    BuiltinPlace,
    CapRule,
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
    SessionLogs,
    Sessions,
    Shadow,
    SkillFolder,
    Wire,
)

for _module in iter_modules(__path__):
    import_module(f"{__name__}.{_module.name}")

__all__ = [
    "AGENT_SPECS",
    "AgentSpec",
    "ApiShape",
    "BuiltinPlace",
    "CapRule",
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
    "Order",
    "Overflow",
    "Package",
    "Placement",
    "Region",
    "Release",
    "SessionLogs",
    "Sessions",
    "Shadow",
    "SkillFolder",
    "Wire",
    "default_agents",
    "import_own_rules",
    "register_agent",
]
