"""Listing renderers (profiles), orderings and the listing types."""

from skillbench.listing._types import SHOWN_STATUSES, EntryStatus, Listing, ListedSkill

__all__ = ["SHOWN_STATUSES", "EntryStatus", "ListedSkill", "Listing"]
