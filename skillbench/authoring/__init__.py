"""Tools for skill authors: ``lint`` the files, find confusable pairs (``overlap``) and
``tune`` descriptions against labelled requests with a blinded test split."""

from skillbench.authoring._builtins import (
    CLAUDE_CODE_COMMANDS,
    CLAUDE_CODE_TOOLS,
    CODEX_COMMANDS,
    Builtin,
    builtin_collisions,
)
from skillbench.authoring._lint import LINT_PROFILES, LintReport, lint_sources
from skillbench.authoring._lint_format import LintFormat, explain, format_report
from skillbench.authoring._llm_proposer import LitellmProposer, parse_candidates
from skillbench.authoring._overlap import (
    Flip,
    PairOverlap,
    entry_document,
    load_overlap,
    overlap_pairs,
)
from skillbench.authoring._proposers import (
    PROPOSERS,
    OfflineProposer,
    Proposal,
    ProposalRequest,
    Proposer,
    ProposerStopped,
    Rival,
    make_proposer,
)
from skillbench.authoring._replay_link import (
    Decision,
    Paired,
    compare_paired,
    per_request,
    run_decisions,
)
from skillbench.authoring._rules import RULES, Finding, LintSeverity, Rule, all_rules, get_rule
from skillbench.authoring._split import Split, request_record, stratified_split, write_requests
from skillbench.authoring._tune import (
    Attempt,
    Score,
    TuneOptions,
    TuneResult,
    max_description_chars,
    proposal_request,
    tune,
    tune_plan,
    worst_skills,
)
from skillbench.authoring._tune_report import (
    apply_changes,
    report_data,
    report_markdown,
    unified_diff,
    write_report,
)
from skillbench.authoring._variant import CatalogCopy, Source, replace_frontmatter_description

__all__ = [
    "CLAUDE_CODE_COMMANDS",
    "CLAUDE_CODE_TOOLS",
    "CODEX_COMMANDS",
    "LINT_PROFILES",
    "PROPOSERS",
    "RULES",
    "Attempt",
    "Builtin",
    "CatalogCopy",
    "Decision",
    "Finding",
    "Flip",
    "LintFormat",
    "LintReport",
    "LintSeverity",
    "LitellmProposer",
    "OfflineProposer",
    "PairOverlap",
    "Paired",
    "Proposal",
    "ProposalRequest",
    "Proposer",
    "ProposerStopped",
    "Rival",
    "Rule",
    "Score",
    "Source",
    "Split",
    "TuneOptions",
    "TuneResult",
    "all_rules",
    "apply_changes",
    "builtin_collisions",
    "compare_paired",
    "entry_document",
    "explain",
    "format_report",
    "get_rule",
    "lint_sources",
    "load_overlap",
    "make_proposer",
    "max_description_chars",
    "overlap_pairs",
    "parse_candidates",
    "per_request",
    "proposal_request",
    "replace_frontmatter_description",
    "report_data",
    "report_markdown",
    "request_record",
    "run_decisions",
    "stratified_split",
    "tune",
    "tune_plan",
    "unified_diff",
    "worst_skills",
    "write_report",
    "write_requests",
]
