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
from skillbench.authoring._overlap import (
    Flip,
    PairOverlap,
    entry_document,
    load_overlap,
    overlap_pairs,
    symmetric_bm25,
)
from skillbench.authoring._rules import RULES, Finding, LintSeverity, Rule, all_rules, get_rule

__all__ = [
    "CLAUDE_CODE_COMMANDS",
    "CLAUDE_CODE_TOOLS",
    "CODEX_COMMANDS",
    "LINT_PROFILES",
    "RULES",
    "Builtin",
    "Finding",
    "Flip",
    "LintFormat",
    "LintReport",
    "LintSeverity",
    "PairOverlap",
    "Rule",
    "all_rules",
    "builtin_collisions",
    "entry_document",
    "explain",
    "format_report",
    "get_rule",
    "lint_sources",
    "load_overlap",
    "overlap_pairs",
    "symmetric_bm25",
]
