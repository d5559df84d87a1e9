"""Privacy: secrets, e-mail addresses and home directories out of imported text.

Logs hold whatever people pasted: keys, tokens, addresses, their user name in every path.
Imported requests are meant to be shared (a benchmark in a repository), so they are
scrubbed by default; ``keep_paths`` keeps home directories for a user who wants them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SECRETS = re.compile(
    r"(?=[-ABabeghrswx])(?:"  # every first character below: lets the scan skip the rest
    + "|".join(
        (
            r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}",  # OpenAI / Anthropic keys
            r"\bgh[pousr]_[A-Za-z0-9]{30,}",  # GitHub tokens
            r"\bgithub_pat_[A-Za-z0-9_]{30,}",
            r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",  # Slack tokens
            r"https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]+",
            r"\b(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA|ANVA|AIPA|ABIA|ACCA)[0-9A-Z]{16}\b",  # AWS ids
            r"\bAIza[0-9A-Za-z_\-]{35}",  # Google API keys
            r"\bglpat-[A-Za-z0-9_\-]{20,}",  # GitLab tokens
            r"\bhf_[A-Za-z0-9]{30,}",  # Hugging Face tokens
            r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}",  # Stripe secret keys
            r"\bwhsec_[A-Za-z0-9]{20,}",  # Stripe webhook secrets
            r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",  # JWTs
            r"\b[Bb]earer(?:\s+|%20|\+)[A-Za-z0-9._\-~+/]{16,}(?:=|%3[Dd])*",
            # PEM and OpenSSH private keys, also when cut off before their END line
            r"(?s:-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?"
            r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z))",
        )
    )
    + ")"
)
_KEY = (
    r"(?:api[_-]?key|(?:access|secret|private)[_-]?key|(?:access|auth|refresh)[_-]?token"
    r"|client[_-]?secret|secret|token|password|passwd|pwd|passphrase|credentials?"
    r"|authorization)"
)
"""Names whose value is a secret; ``_NAMED`` allows words joined to them by ``_``, ``-`` or
``.`` (``DB_PASSWORD``, ``OPENAI_API_KEY``, ``aws_secret_access_key``), not inside a word
(``tokenizer``). The match starts at the name itself, so a scan never re-reads a word."""
_NAMED = rf"(?:(?<![A-Za-z0-9])|(?<=%[0-9A-Fa-f]{{2}})){_KEY}(?:[_.\-][A-Za-z0-9]+)*"
_VALUE = r"(?P<value>(?:(?!%26|%20)[^\s\"'`\\,;&<>(){}\[\]])+)"
"""An unquoted value: up to a space, quote, backslash (a JSON escape) or separator, also
URL-encoded (``%26``, ``%20``) inside an encoded URL."""
_QUOTED = r"(?P<quoted>[^\"'`\\\n]+)"
_ASSIGNED = re.compile(
    rf"(?i)(?=[-acprst])(?P<key>(?P<flag>(?<!\S)--?(?:[A-Za-z0-9]+[_.\-])*)?{_NAMED}\\?[\"']?)"
    rf"(?P<sep>\s*(?:[:=]|%3[AD])(?:\s|%20)*|(?(flag)\s+(?=[^\s-])|(?!)))"
    rf"(?P<open>\\?[\"'`]?)(?P<scheme>(?:basic|bearer|token|digest|bot)(?:\s+|%20|\+))?"
    rf"(?:(?<=[\"'`]){_QUOTED}|{_VALUE})"
)
"""``name = value``, ``name: "value"`` (also JSON-escaped, ``{\\"password\\": \\"x\\"}``),
``name%3Dvalue`` (URL-encoded, also as a parameter of an encoded URL: ``%3Ftoken%3D…``) and
``--name value`` (a command-line flag, words before the name too: ``--db-password X``)."""
_PROSE_MIN = 6
"""A value after ``name:`` unquoted is taken as a secret only from this length on, so prose
("the password: see the wiki") keeps its short words; ``=``, flags and quotes always count."""
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
        text = _ASSIGNED.sub(_assigned, text)
        text = _EMAIL.sub(EMAIL, text)
        if not self.keep_paths:
            text = _HOME.sub("~", text)
        return text


def _assigned(match: re.Match[str]) -> str:
    """The match with its value replaced, unless it is prose rather than an assignment."""
    sep, value = match["sep"], match["value"]
    if value is not None and ":" in sep and not match["open"] and len(value) < _PROSE_MIN:
        return match[0]
    return match[0][: match.start("quoted" if value is None else "value") - match.start()] + SECRET
