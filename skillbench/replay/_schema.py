"""The run config's JSON Schema, with registry names as enums, for editors and validators."""

from __future__ import annotations

import re

from skillbench._plugins import REFERENCE_PATTERN
from skillbench.replay._config import RunConfig
from skillbench.types import JsonObject


def config_schema() -> JsonObject:
    """``RunConfig``'s JSON Schema; profile, selector type, retrieve method, ordering and
    executor names come from their registries (installed plugins included), so the schema
    lists exactly what this installation accepts, and a profile or selector type may also
    be a ``package.module:object`` name."""
    from skillbench.listing import ORDERINGS, PROFILES
    from skillbench.replay._executor import EXECUTORS
    from skillbench.selectors import RETRIEVERS, SELECTORS

    schema = RunConfig.model_json_schema()
    props = schema["properties"]
    reference = {"pattern": REFERENCE_PATTERN, "type": "string"}
    name = {"anyOf": [{"enum": PROFILES.names(), "type": "string"}, reference]}
    with_options = {"properties": {"name": name}, "required": ["name"], "type": "object"}
    props["profiles"]["items"] = {"anyOf": [name, with_options]}
    names = "|".join(re.escape(n) for n in ORDERINGS.names())
    props["orderings"]["items"] = {"pattern": f"^({names})(:.+)?$", "type": "string"}
    budget = {"minimum": 1, "type": "integer"}
    props["budgets"]["items"] = {"anyOf": [budget, {"type": "null"}]}
    sizes = {"items": {"anyOf": [budget, {"const": "all"}]}, "type": "array"}
    props["catalog_sizes"]["anyOf"] = [sizes, {"type": "null"}]
    props["executor"]["anyOf"] = [{"enum": EXECUTORS.names(), "type": "string"}, {"type": "null"}]
    selector = schema["$defs"]["SelectorConfig"]
    selector["properties"]["type"] = {"anyOf": [{"enum": SELECTORS.names()}, reference]}
    retrieve = schema["$defs"]["RetrieveConfig"]
    retrieve["properties"]["method"] = {"enum": RETRIEVERS.names(), "type": "string"}
    schema["title"] = "skillbench run config"
    return schema
