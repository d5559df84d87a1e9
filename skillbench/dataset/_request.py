"""A labelled request: what a user said and which skill (if any) should trigger."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from skillbench.types import JsonObject


@dataclass(frozen=True, slots=True)
class LabelledRequest:
    """One labelled request.

    Attributes:
        id: unique id within the request file.
        text: the user's message.
        expected: acceptable skill names; empty when no skill should trigger.
        at: when the request happens (timezone-aware UTC); drives usage decay.
        session: session id; turns within a session share a conversation.
        turn: 0-based turn within the session.
        tags: e.g. normal, boundary, abnormal, negative, near-miss.
        args: arguments a user would pass to the skill, when labelled.
        source: ``file:line`` the request came from, for error messages.
        extra: the record's other fields (a ``topic``, a label source), kept as JSON data so
            a split writes them back.
    """

    id: str
    text: str
    expected: tuple[str, ...] = ()
    at: datetime | None = None
    session: str | None = None
    turn: int | None = None
    tags: tuple[str, ...] = ()
    args: str | None = None
    source: str = ""
    extra: JsonObject = field(default_factory=dict, hash=False, compare=False)

    @property
    def positive(self) -> bool:
        """True when some skill should trigger."""
        return bool(self.expected)
