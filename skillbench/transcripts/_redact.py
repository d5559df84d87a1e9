"""Privacy: secrets, e-mail addresses and home directories out of imported text.

Logs hold whatever people pasted: keys, tokens, addresses, their user name in every path.
Imported requests are meant to be shared (a benchmark in a repository), so they are
scrubbed by default; ``keep_paths`` keeps home directories for a user who wants them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SECRETS = re.compile(
    "|".join(
        (
            r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}",  # OpenAI / Anthropic keys
            r"\bgh[pousr]_[A-Za-z0-9]{30,}",  # GitHub tokens
            r"\bgithub_pat_[A-Za-z0-9_]{30,}",
            r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",  # Slack tokens
            r"\bAKIA[0-9A-Z]{16}\b",  # AWS access key ids
            r"\bAIza[0-9A-Za-z_\-]{35}",  # Google API keys
            r"\bglpat-[A-Za-z0-9_\-]{20,}",  # GitLab tokens
            r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",  # JWTs
            r"\b[Bb]earer\s+[A-Za-z0-9._\-~+/]{16,}=*",
        )
    )
)
_ASSIGNED = re.compile(
    r"(?i)\b((?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password|passwd|token)"
    r"[\"']?\s*[:=]\s*[\"']?)([^\s\"',;]{6,})"
)
_EMAIL = re.compile(r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}\b")
_HOME = re.compile(r"(?:/home/|/Users/|[A-Za-z]:\\\\?Users\\\\?)[^/\\\s\"'`]+")

SECRET = "[SECRET]"
EMAIL = "[EMAIL]"


@dataclass(frozen=True, slots=True)
class Redactor:
    """Scrubs text; ``keep_paths`` leaves home directories as they are."""

    keep_paths: bool = False

    def __call__(self, text: str) -> str:
        text = _SECRETS.sub(SECRET, text)
        text = _ASSIGNED.sub(lambda m: m.group(1) + SECRET, text)
        text = _EMAIL.sub(EMAIL, text)
        if not self.keep_paths:
            text = _HOME.sub("~", text)
        return text
