"""Requests from real usage: Claude Code and Codex session logs, listing fidelity, synthesis.

``import_logs`` turns logs into a requests file (one request per user turn, labelled with
the skill invoked and who chose it), a usage history and, for Claude Code, the listings the
model was shown; ``fidelity`` compares those listings with skillbench's rendering.
"""

from skillbench.transcripts._fidelity import (
    Comparison,
    ListingDiff,
    check_listings,
    compare_listing,
    diff_json,
)
from skillbench.transcripts._import import (
    AGENTS,
    LISTINGS_FILE,
    REQUESTS_FILE,
    USAGE_FILE,
    Agent,
    ImportOptions,
    find_logs,
    import_logs,
    parse_logs,
)
from skillbench.transcripts._reader import read_lines
from skillbench.transcripts._redact import Redactor
from skillbench.transcripts._types import (
    Diagnostic,
    ImportedRequest,
    ImportSummary,
    Invocation,
    LabelSource,
    RecordedListing,
)

__all__ = [
    "AGENTS",
    "LISTINGS_FILE",
    "REQUESTS_FILE",
    "USAGE_FILE",
    "Agent",
    "Comparison",
    "Diagnostic",
    "ImportOptions",
    "ImportSummary",
    "ImportedRequest",
    "Invocation",
    "LabelSource",
    "ListingDiff",
    "RecordedListing",
    "Redactor",
    "check_listings",
    "compare_listing",
    "diff_json",
    "find_logs",
    "import_logs",
    "parse_logs",
    "read_lines",
]
