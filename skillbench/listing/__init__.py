"""Profiles (one per agent), their listing renderers, orderings and the listing types.

Importing the package registers the codebot profile and one profile per
shipped agent and release, derived from the agents' records (``skillbench.agentspec``), in
``PROFILES``, and the orderings in ``ORDERINGS``.
"""

from skillbench.agentspec import import_own_rules
from skillbench.listing import _codebot  # noqa: F401  (register)
from skillbench.listing._divergence import Divergence, DivergenceKind, divergences
from skillbench.listing._explain import (
    NOT_SHOWN_REASONS,
    Explanation,
    Fate,
    NotShown,
    NotShownReason,
    explain,
    why_not_shown,
)
from skillbench.listing._knobs import (
    KNOBS,
    Derivation,
    Knob,
    Knobs,
    Unit,
    budget_of,
    option_of,
    snapshot_window,
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
    AgentView,
    NotFound,
    agent_folders,
    agent_profiles,
    agent_views,
    folder_of,
    unread_by,
)
from skillbench.listing._profile import (
    OWN_RENDERERS,
    PROFILES,
    Mention,
    OwnRenderer,
    Placement,
    Profile,
    SnapshotUse,
    Trigger,
    follow_agents,
    make_renderer,
    profile_of,
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
from skillbench.listing._template import (
    Element,
    TemplateRenderer,
    element_pattern,
    parse_builtins,
    parse_elements,
)
from skillbench.listing._types import SHOWN_STATUSES, EntryStatus, ListedSkill, Listing
from skillbench.types import expected_shown

import_own_rules(__name__, __path__)
follow_agents()

__all__ = [
    "KNOBS",
    "NOT_SHOWN_REASONS",
    "ORDERINGS",
    "OWN_RENDERERS",
    "PROFILES",
    "SHOWN_STATUSES",
    "SOURCE_PRIORITY",
    "AgentSnapshot",
    "AgentView",
    "BuiltinSkill",
    "Derivation",
    "Divergence",
    "DivergenceKind",
    "Element",
    "Entry",
    "EntryStatus",
    "Explanation",
    "Fate",
    "Knob",
    "Knobs",
    "Layout",
    "ListedSkill",
    "Listing",
    "ListingPlan",
    "Mention",
    "NotFound",
    "NotShown",
    "NotShownReason",
    "Ordering",
    "OwnRenderer",
    "Place",
    "Placed",
    "Placement",
    "Profile",
    "RenderOptions",
    "Renderer",
    "RendererFactory",
    "SnapshotChoice",
    "SnapshotUse",
    "TemplateRenderer",
    "Trigger",
    "Unit",
    "UsageOrdering",
    "agent_folders",
    "agent_profiles",
    "agent_views",
    "budget_of",
    "divergences",
    "element_pattern",
    "expected_shown",
    "explain",
    "folder_of",
    "follow_agents",
    "get_ordering",
    "listable_indices",
    "make_renderer",
    "option_of",
    "parse_builtins",
    "parse_elements",
    "profile_of",
    "read_snapshot",
    "register_profile",
    "render_listing",
    "resolve_snapshot",
    "save_snapshot",
    "snapshot_path",
    "snapshot_window",
    "unread_by",
    "why_not_shown",
]
