"""What an import produces: requests, recorded listings, invocations and diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple

LabelSource = Literal["model_invoked", "user_invoked", "none"]
"""Who chose the turn's skill: the model (a tool call), the user (a typed command), nobody."""

Severity = Literal["skipped", "note"]
"""``skipped``: a line (or the rest of a file) could not be read; ``note``: read, but odd."""


class LogProblem(NamedTuple):
    """A problem in an input file, by file and line (``line`` 0: the file as a whole)."""

    file: str
    line: int
    severity: Severity
    reason: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity}: {self.reason}"


@dataclass(frozen=True, slots=True)
class ImportedRequest:
    """One user turn of a session, labelled with what was invoked during it.

    Attributes:
        session: session id (a sub-agent's is ``<session>/<agent>``).
        turn: 0-based user turn within the session.
        text: what the user typed (a sub-agent's: the task it was given).
        at: ISO-8601 time of the user's message.
        expected: skills invoked during the turn, in first-use order.
        label_source: who chose them (see ``LabelSource``).
        source: ``file:line`` of the user's message.
        args: arguments of a user-typed command, when there were any.
        tags: ``subagent`` for a sub-agent's task.
        by_model: skills the model invoked during the turn (a user's choice hides them
            from ``expected``, not from here).
        by_user: skills the user invoked by typing them.
    """

    session: str
    turn: int
    text: str
    at: str | None
    expected: tuple[str, ...]
    label_source: LabelSource
    source: str
    args: str | None = None
    tags: tuple[str, ...] = ()
    by_model: tuple[str, ...] = ()
    by_user: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.session}#{self.turn}"


class ListedEntry(NamedTuple):
    """One entry of a recorded listing: its head (the name, or ``folder (name)``) and the
    text shown after it (empty for a name-only entry)."""

    head: str
    text: str


@dataclass(frozen=True, slots=True)
class RecordedListing:
    """A skill listing the agent showed the model, as its session log records it.

    Attributes:
        session: the session it was shown in.
        at: ISO-8601 time of the attachment.
        initial: True for a full listing; False for a later delta naming only new skills.
        names: the skill names it lists, as recorded.
        content: the listing text, as recorded (redacted).
        source: ``file:line`` of the attachment.
        entries: the entries parsed from the unredacted text, in listing order.
        omits: the agent's budget ran out in this listing, so skills past it were left out
            (for an agent whose last resort is to cut every entry to its bare name).
    """

    session: str
    at: str | None
    initial: bool
    names: tuple[str, ...]
    content: str
    source: str
    entries: tuple[ListedEntry, ...] = ()
    omits: bool = False


class SkillUse(NamedTuple):
    """One skill use, for the usage history."""

    skill: str
    at: str


class OutsideCall(NamedTuple):
    """The model called skills outside the catalog given with ``--skills`` in one turn.

    ``dropped``: the turn invoked nothing else, so it was left out of the requests: with no
    label it would read as a request that needs no skill, which it was not.
    """

    skills: tuple[str, ...]
    session: str
    turn: int
    source: str
    dropped: bool

    def diagnostic(self) -> LogProblem:
        file, _, line = self.source.rpartition(":")
        names = ", ".join(f"`{s}`" for s in self.skills)
        then = (
            "turn left out of the requests (it is no negative)"
            if self.dropped
            else "the turn keeps its other skills as labels"
        )
        return LogProblem(
            file,
            int(line) if line.isdigit() else 0,
            "note",
            f"session {self.session} turn {self.turn}: the model called {names}, not among "
            f"--skills; {then}",
        )


@dataclass
class ImportSummary:
    """Counts of one import, for the closing line and the exit code."""

    files: int = 0
    lines: int = 0
    requests: int = 0
    listings: int = 0
    invocations: int = 0
    diagnostics: list[LogProblem] = field(default_factory=list)
    outside: dict[str, int] = field(default_factory=dict)
    """Model calls to skills outside ``--skills``, by skill name."""
    left_out: int = 0
    """Turns not written as requests because their only calls were outside ``--skills``."""
    classes: dict[str, int] = field(default_factory=dict)
    """Expected skills of the written turns, by class (see ``_classify``)."""

    @property
    def skipped(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "skipped")


Item = ImportedRequest | RecordedListing | SkillUse | OutsideCall | LogProblem
"""What a log parser yields, in file order."""
