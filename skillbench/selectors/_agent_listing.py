"""What a live turn's listing is checked and seeded against: the cell's render and usage.

The agent's real request holds the listing it sent; ``ListingCheck`` compares it with the
cell's rendered one entry by entry (``skillbench.agents.listing_difference``), leaving out
the agent's own skills, learnt once from a turn with nothing installed. ``seeded_usage``
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


class ListingCheck:
    """Per live decision, ``{LISTING_MISMATCH: first difference or None}``."""

    def __init__(self, driver: AgentDriver, executable: str, timeout: float) -> None:
        self.driver = driver
        self.executable = executable
        self.timeout = timeout
        self._builtins: frozenset[str] | None = None
        self._lock = threading.Lock()

    def __call__(self, query: Query, requests: Sequence[Recorded]) -> dict[str, Any]:
        agent = self.driver.name
        sent = self.driver.listing(self.driver.main_request(requests).body)
        found = listing_difference(agent, sent, query.listing.text, self.builtin_names())
        return {LISTING_MISMATCH: found}

    def builtin_names(self) -> frozenset[str]:
        """The names the agent lists with no skill installed, asked once: its own skills
        (and any it finds outside the workspace, such as system-wide ones, which the check
        therefore cannot see). An agent that sends no listing without skills has none."""
        with self._lock:
            if self._builtins is None and not self.driver.spec.wire.lists_none:
                self._builtins = frozenset()
            if self._builtins is None:
                agent = self.driver.name
                bare = capture_agent(
                    agent, executable=self.executable, snapshot=False, timeout=self.timeout
                )
                self._builtins = frozenset(e.name for e in listing_entries(agent, bare.listing))
            return self._builtins


def seeded_usage(query: Query) -> dict[str, int]:
    """The cell's usage scores of its catalog's skills as the agent's use counts, all used
    just now (see ``USAGE_SCALE``): the agent then ranks them as the cell did."""
    listed = {entry.name for entry in query.listing.entries}
    return {
        name: max(1, round(score * USAGE_SCALE))
        for name, score in query.usage.items()
        if name in listed and score > 0
    }
