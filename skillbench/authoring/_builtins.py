"""Names an agent already owns (its record's ``owned_names``): a skill with one of them is
shadowed or confuses the model."""

from __future__ import annotations

from typing import NamedTuple

from skillbench.agentspec import AGENT_SPECS


class Builtin(NamedTuple):
    """One agent-owned name a skill collides with."""

    agent: str
    kind: str
    name: str


def builtin_collisions(name: str) -> list[Builtin]:
    """Every built-in ``name`` collides with, compared case-insensitively (``_`` as ``-``)."""
    key = name.strip().lower().replace("_", "-")
    return [
        Builtin(spec.title, kind, owned)
        for spec in AGENT_SPECS.values()
        for kind, names in spec.owned_names.items()
        for owned in sorted(names)
        if owned.lower() == key
    ]
