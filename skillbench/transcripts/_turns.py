"""Grouping a session's lines into user turns, each labelled with what it invoked.

Both agents log a user's message, then everything the agent did about it, then the next
user message. A turn is therefore open from one user message to the next (or the end of
the file), and only the open turn is held in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from skillbench.transcripts._types import ImportedRequest, LabelSource, OutsideCall


@dataclass
class _Open:
    session: str
    turn: int
    text: str
    at: str | None
    source: str
    args: str | None
    tags: tuple[str, ...]
    user: list[str] = field(default_factory=list)
    model: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)


class Turns:
    """The open turn of each session of one file, and each session's turn counter.

    Args:
        redact: applied to every text and argument string that leaves the importer.
        counts: turns seen so far per session, shared by the files of one import so a
            session spread over several files keeps numbering its turns.
    """

    def __init__(self, redact: Callable[[str], str], counts: dict[str, int]) -> None:
        self._redact = redact
        self._open: _Open | None = None
        self._counts = counts

    def start(
        self,
        session: str,
        text: str,
        at: str | None,
        source: str,
        *,
        args: str | None = None,
        tags: tuple[str, ...] = (),
    ) -> Iterator[ImportedRequest | OutsideCall]:
        """Open a new turn; yields the turn it closes, if any."""
        yield from self.close()
        turn = self._counts.get(session, 0)
        self._counts[session] = turn + 1
        self._open = _Open(session, turn, text, at, source, args, tags)

    @property
    def open_text(self) -> str | None:
        """The text of the open turn, None when none is open."""
        return None if self._open is None else self._open.text

    def invoked(self, name: str, by: LabelSource) -> bool:
        """Record that ``name`` was invoked in the open turn; True the first time it is.

        Without an open turn nothing is recorded (False).
        """
        if self._open is None:
            return False
        names = self._open.user if by == "user_invoked" else self._open.model
        first = name not in self._open.user and name not in self._open.model
        if name not in names:
            names.append(name)
        return first

    def outside(self, name: str) -> None:
        """Record that the model called ``name``, a skill outside the known catalog, in the
        open turn (nothing without an open turn)."""
        if self._open is not None and name not in self._open.outside:
            self._open.outside.append(name)

    def close(self) -> Iterator[ImportedRequest | OutsideCall]:
        """Yield the open turn as a request, labelled; the user's choice outranks the model's.

        A turn whose only calls were to skills outside the catalog is no request: unlabelled,
        it would read as one that needs no skill. It yields an ``OutsideCall`` instead (and
        one beside the request when the turn invoked known skills too).
        """
        turn, self._open = self._open, None
        if turn is None:
            return
        if turn.outside:
            dropped = not (turn.user or turn.model)
            yield OutsideCall(tuple(turn.outside), turn.session, turn.turn, turn.source, dropped)
            if dropped:
                return
        source: LabelSource = (
            "user_invoked" if turn.user else "model_invoked" if turn.model else "none"
        )
        expected = turn.user or turn.model
        yield ImportedRequest(
            session=turn.session,
            turn=turn.turn,
            text=self._redact(turn.text),
            at=turn.at,
            expected=tuple(expected),
            label_source=source,
            source=turn.source,
            args=self._redact(turn.args) if turn.args else None,
            tags=turn.tags,
            by_model=tuple(turn.model),
            by_user=tuple(turn.user),
        )
