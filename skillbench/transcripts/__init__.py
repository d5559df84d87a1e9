"""Requests from real usage: agents' session logs, listing fidelity, synthesis.

``import_logs`` turns the logs of an agent with a reader in ``LOG_PARSERS`` into a requests
file (one request per user turn, labelled with the skill invoked and who chose it), a usage
history and, where its logs record them, the listings the model was shown;
``check_listings`` compares those listings with skillbench's rendering; ``synthesize`` has a
model write labelled requests for people without logs. Each turn that expected a skill is
classified by why it fired or not (``SkillClass``), and ``write_class_report`` tabulates
those classes per skill.
"""

from skillbench.agentspec import import_own_rules
from skillbench.transcripts._class_report import (
    SkillClasses,
    class_table,
    is_import,
    write_class_report,
)
from skillbench.transcripts._classify import TURN_CLASSES, SkillClass, TurnClass, class_text
from skillbench.transcripts._fidelity import (
    ListingDiff,
    TextComparison,
    check_listings,
    compare_listing,
    diff_json,
)
from skillbench.transcripts._formats import LOG_PARSERS, ImportOptions, LogParser
from skillbench.transcripts._import import (
    DIAGNOSTICS_FILE,
    LISTINGS_FILE,
    REQUESTS_FILE,
    USAGE_FILE,
    find_logs,
    import_logs,
    parse_logs,
)
from skillbench.transcripts._reader import read_lines
from skillbench.transcripts._redact import Redactor
from skillbench.transcripts._synth import (
    Dropped,
    Job,
    SynthEstimate,
    SynthOptions,
    SynthRequest,
    SynthResult,
    dedupe,
    estimate,
    plan,
    synthesize,
    write_review,
)
from skillbench.transcripts._types import (
    ImportedRequest,
    ImportSummary,
    LabelSource,
    LogProblem,
    RecordedListing,
    SkillUse,
)

import_own_rules(__name__, __path__)

__all__ = [
    "DIAGNOSTICS_FILE",
    "LISTINGS_FILE",
    "LOG_PARSERS",
    "REQUESTS_FILE",
    "TURN_CLASSES",
    "USAGE_FILE",
    "Dropped",
    "ImportOptions",
    "ImportSummary",
    "ImportedRequest",
    "Job",
    "LabelSource",
    "ListingDiff",
    "LogParser",
    "LogProblem",
    "RecordedListing",
    "Redactor",
    "SkillClass",
    "SkillClasses",
    "SkillUse",
    "SynthEstimate",
    "SynthOptions",
    "SynthRequest",
    "SynthResult",
    "TextComparison",
    "TurnClass",
    "check_listings",
    "class_table",
    "class_text",
    "compare_listing",
    "dedupe",
    "diff_json",
    "estimate",
    "find_logs",
    "import_logs",
    "is_import",
    "parse_logs",
    "plan",
    "read_lines",
    "synthesize",
    "write_class_report",
    "write_review",
]
