"""Invocation processing and the token cost of inline versus fork execution (issue 5)."""

from skillbench.cost._annotator import CostAnnotator, cost_annotator
from skillbench.cost._invocation import (
    PRIVILEGED_SOURCES,
    Invocation,
    InvocationPath,
    expand_args,
    find_shell_injections,
    process_invocation,
    render_user_prompt,
    skill_dir_of,
    strip_frontmatter,
    wrap_prompt,
)
from skillbench.cost._model import CostModel, DecisionCost, Mode, break_even_turns, recommend
from skillbench.cost._pricing import Pricing, pricing_for
from skillbench.cost._report import (
    DEFAULT_HORIZON,
    ListingCost,
    SkillCost,
    listing_cost,
    skill_costs,
)
from skillbench.cost._rows import (
    FORK_SUMMARY_KEY,
    CostTotals,
    RequestIndex,
    Requests,
    SkillLookup,
    annotate_rows,
    cell_cost,
    decision_costs,
    remaining_turns,
    session_costs,
)

__all__ = [
    "DEFAULT_HORIZON",
    "FORK_SUMMARY_KEY",
    "PRIVILEGED_SOURCES",
    "CostAnnotator",
    "CostModel",
    "CostTotals",
    "DecisionCost",
    "Invocation",
    "InvocationPath",
    "ListingCost",
    "Mode",
    "Pricing",
    "RequestIndex",
    "Requests",
    "SkillCost",
    "SkillLookup",
    "annotate_rows",
    "break_even_turns",
    "cell_cost",
    "cost_annotator",
    "decision_costs",
    "expand_args",
    "find_shell_injections",
    "listing_cost",
    "pricing_for",
    "process_invocation",
    "recommend",
    "remaining_turns",
    "render_user_prompt",
    "session_costs",
    "skill_costs",
    "skill_dir_of",
    "strip_frontmatter",
    "wrap_prompt",
]
