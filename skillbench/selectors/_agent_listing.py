"""What a live turn's listing is checked and seeded against: the cell's render and usage.

The agent's real request holds the listing it sent; ``ListingCheck`` compares it with the
cell's rendered one entry by entry (``skillbench.agents.listing_difference``), leaving out
the agent's own skills, learnt once per process and executable from a turn with nothing
installed (``builtin_names``: every cell of a run, and every selector, shares it). ``seeded_usage``
turns the cell's usage scores into an agent's use counts, so an agent that orders by usage
(a least-used drop rule) ranks the skills as the cell did.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from skillbench.agents import (
    AgentDriver,
    Recorded,
    capture_agent,
    listing_difference,
    listing_entries,
)
from skillbench.selectors._types import Query
from skillbench.types import LISTING_MISMATCH

USAGE_SCALE = 1000
"""Seeded use counts are the cell's scores times this, rounded: the agent keeps whole
counts, and its order of skills by score is the cell's."""


_BUILTINS: dict[tuple[str, str], frozenset[str]] = {}
"""(agent, executable) → the names it lists with nothing installed, learnt in this process."""

_BUILTINS_LOCK = threading.Lock()


class ListingCheck:
    """Per live decision, ``{LISTING_MISMATCH: first difference or None}``."""

    def __init__(self, driver: AgentDriver, executable: str, timeout: float) -> None:
        self.driver = driver
        self.executable = executable
        self.timeout = timeout

    def __call__(self, query: Query, requests: Sequence[Recorded]) -> dict[str, Any]:
        agent = self.driver.name
        sent = self.driver.listing(self.driver.main_request(requests).body)
        found = listing_difference(agent, sent, query.listing.text, self.builtin_names())
        return {LISTING_MISMATCH: found}

    def builtin_names(self) -> frozenset[str]:
        """The names the agent lists with no skill installed, asked once: its own skills
        (and any it finds outside the workspace, such as system-wide ones, which the check
        therefore cannot see). An agent that sends no listing without skills has none. The
        answer is kept for the process, per agent and executable: a run's cells, and the
        selectors of a benchmark, ask the agent once."""
        if not self.driver.spec.wire.lists_none:
            return frozenset()
        agent = self.driver.name
        key = (agent, self.executable)
        with _BUILTINS_LOCK:
            if key not in _BUILTINS:
                bare = capture_agent(
                    agent, executable=self.executable, snapshot=False, timeout=self.timeout
                )
                _BUILTINS[key] = frozenset(e.name for e in listing_entries(agent, bare.listing))
            return _BUILTINS[key]


def seeded_usage(query: Query) -> dict[str, int]:
    """The cell's usage scores of its catalog's skills as the agent's use counts, all used
    just now (see ``USAGE_SCALE``): the agent then ranks them as the cell did."""
    listed = {entry.name for entry in query.listing.entries}
    return {
        name: max(1, round(score * USAGE_SCALE))
        for name, score in query.usage.items()
        if name in listed and score > 0
    }
