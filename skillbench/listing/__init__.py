"""Profiles (one per agent), their listing renderers, orderings and the listing types.

Importing the package registers the profiles (codebot, claude-code, codex,
copilot-cli, gemini-cli, openharness) in ``PROFILES`` and the orderings in ``ORDERINGS``.
"""

from skillbench.listing import (  # noqa: F401  (register)
    _claude_code,
    _codebot,
    _codex,
    _copilot_cli,
    _gemini_cli,
    _opencode,
    _openharness,
    _qwen_code,
)
from skillbench.listing._claude_code import (
    DROP_RULES,
    FIXED_BUILTINS,
    BudgetBasis,
    DropRule,
    ListingLine,
    budget_basis,
    older_model,
)
from skillbench.listing._explain import (
    NOT_SHOWN_REASONS,
    Explanation,
    Fate,
    NotShown,
    NotShownReason,
    explain,
    why_not_shown,
)
from skillbench.listing._orderings import (
    ORDERINGS,
    SOURCE_PRIORITY,
    Ordering,
    UsageOrdering,
    get_ordering,
)
from skillbench.listing._plan import ListingPlan, Place, listable_indices, render_listing
from skillbench.listing._portability import (
    AGENT_FOLDERS,
    AgentView,
    NotFound,
    agent_profiles,
    agent_views,
    folder_of,
    unread_by,
)
from skillbench.listing._profile import (
    PROFILES,
    Mention,
    Placement,
    Profile,
    SnapshotUse,
    Trigger,
    make_renderer,
    register_profile,
)
from skillbench.listing._renderer import (
    Entry,
    Layout,
    Placed,
    Renderer,
    RendererFactory,
    RenderOptions,
)
from skillbench.listing._snapshot import (
    AgentSnapshot,
    BuiltinSkill,
    SnapshotChoice,
    read_snapshot,
    resolve_snapshot,
    save_snapshot,
    snapshot_path,
)
from skillbench.listing._types import SHOWN_STATUSES, EntryStatus, ListedSkill, Listing
from skillbench.types import expected_shown

__all__ = [
    "AGENT_FOLDERS",
    "DROP_RULES",
    "FIXED_BUILTINS",
    "NOT_SHOWN_REASONS",
    "ORDERINGS",
    "PROFILES",
    "SHOWN_STATUSES",
    "SOURCE_PRIORITY",
    "AgentSnapshot",
    "AgentView",
    "BudgetBasis",
    "BuiltinSkill",
    "DropRule",
    "Entry",
    "EntryStatus",
    "Explanation",
    "Fate",
    "Layout",
    "ListedSkill",
    "Listing",
    "ListingLine",
    "ListingPlan",
    "Mention",
    "NotFound",
    "NotShown",
    "NotShownReason",
    "Ordering",
    "Place",
    "Placed",
    "Placement",
    "Profile",
    "RenderOptions",
    "Renderer",
    "RendererFactory",
    "SnapshotChoice",
    "SnapshotUse",
    "Trigger",
    "UsageOrdering",
    "agent_profiles",
    "agent_views",
    "budget_basis",
    "expected_shown",
    "explain",
    "folder_of",
    "get_ordering",
    "listable_indices",
    "make_renderer",
    "older_model",
    "read_snapshot",
    "register_profile",
    "render_listing",
    "resolve_snapshot",
    "save_snapshot",
    "snapshot_path",
    "unread_by",
    "why_not_shown",
]
