"""Listing renderers (profiles), orderings and the listing types.

Importing the package registers the four profiles (codebot, claude-code, codex,
openharness) in ``RENDERERS`` and the orderings in ``ORDERINGS``.
"""

from skillbench.listing import _claude_code, _codebot, _codex, _openharness  # noqa: F401  (register)
from skillbench.listing._claude_code import DROP_RULES, DropRule
from skillbench.listing._orderings import (
    ORDERINGS,
    SOURCE_PRIORITY,
    Ordering,
    UsageOrdering,
    get_ordering,
)
from skillbench.listing._plan import ListingPlan, render_listing
from skillbench.listing._renderer import RENDERERS, Entry, Layout, Placed, Renderer, make_renderer
from skillbench.listing._types import SHOWN_STATUSES, EntryStatus, ListedSkill, Listing

__all__ = [
    "DROP_RULES",
    "ORDERINGS",
    "RENDERERS",
    "SHOWN_STATUSES",
    "SOURCE_PRIORITY",
    "DropRule",
    "Entry",
    "EntryStatus",
    "Layout",
    "ListedSkill",
    "Listing",
    "ListingPlan",
    "Ordering",
    "Placed",
    "Renderer",
    "UsageOrdering",
    "get_ordering",
    "make_renderer",
    "render_listing",
]
