"""Skills on disk → a deduplicated, profile-aware catalog."""

from skillbench.catalog._skill import (
    SOURCE_KINDS,
    ExecutionContext,
    Skill,
    SourceKind,
    normalize_context,
    normalize_name,
)

__all__ = [
    "SOURCE_KINDS",
    "ExecutionContext",
    "Skill",
    "SourceKind",
    "normalize_context",
    "normalize_name",
]
