"""Usage history with exponential decay (the reference pipeline's ``UsageTracker``).

Two models of the score, chosen per tracker:

- ``last_use`` (codebot and, as reported, an agent's own usage history):
  ``count × max(0.5 ** (age / half_life), floor)`` where age is the time since the *last* use.
  Cheap, but one recent use lifts every old use with it.
- ``per_event``: ``Σ max(0.5 ** (age_i / half_life), floor)`` over every use, so a burst long
  ago weighs less than the same count spread up to now. The floor applies per event, so an
  old, heavily used skill still outranks one used once.

An infinite half-life (``None``) scores every use 1 (the plain count) in both models. Ages are
clamped at zero: a use recorded after ``now`` counts as brand new. Naive datetimes are UTC.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal, TypedDict

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench.usage._duration import parse_duration
from skillbench.usage._ranked import Columns, RankedScores

UsageModel = Literal["last_use", "per_event"]
USAGE_MODELS: tuple[UsageModel, ...] = ("last_use", "per_event")
DEFAULT_HALF_LIFE = timedelta(days=7)
DEFAULT_FLOOR = 0.10
RANKED_FROM = 500
"""Used skills from which ``ranked`` pays off (numpy's fixed cost against a Python sort)."""


def timestamp(at: datetime) -> float:
    """POSIX seconds of ``at``; a naive datetime is taken as UTC."""
    return (at.replace(tzinfo=UTC) if at.tzinfo is None else at).timestamp()


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


class LastUseRecord(TypedDict):
    """One skill in a ``last_use`` usage file: how often it was used, and when last (ISO)."""

    count: int
    last_used: str


class EventsRecord(TypedDict):
    """One skill in a ``per_event`` usage file: the time of every use (ISO), oldest first."""

    events: list[str]


class UsageTracker:
    """Records skill invocations and scores them with a decaying weight.

    Args:
        half_life: decay half-life (``timedelta``, a duration string such as ``"7d"``, or
            ``None``/``"inf"`` for no decay).
        floor: lowest weight a use decays to (the reference pipeline uses 0.10), in [0, 1].
        model: ``last_use`` or ``per_event`` (see the module docstring).
    """

    def __init__(
        self,
        half_life: timedelta | str | float | None = DEFAULT_HALF_LIFE,
        floor: float = DEFAULT_FLOOR,
        model: UsageModel = "last_use",
    ) -> None:
        if model not in USAGE_MODELS:
            raise SkillbenchError(
                f"unknown usage model {model!r}; choose one of: last_use, per_event"
            )
        if not 0.0 <= floor <= 1.0:
            raise SkillbenchError(f"usage floor must be within [0, 1], got {floor!r}")
        self.half_life = parse_duration(half_life)
        self.floor = float(floor)
        self.model: UsageModel = model
        self._hl = None if self.half_life is None else self.half_life.total_seconds()
        self._last: dict[str, list[float]] = {}  # last_use: name -> [count, last timestamp]
        self._columns: Columns | None = None  # last_use as numpy columns, once ``ranked``
        self._events: dict[str, list[float]] = {}  # per_event: name -> timestamps

    def record(self, skill: str, at: datetime) -> None:
        """Count one invocation of ``skill`` at ``at``."""
        self._add(skill, timestamp(at), 1)

    def count(self, skill: str) -> int:
        """How many times ``skill`` was recorded."""
        if self.model == "per_event":
            return len(self._events.get(skill, ()))
        entry = self._last.get(skill)
        return 0 if entry is None else int(entry[0])

    def __len__(self) -> int:
        """Number of distinct skills with at least one use."""
        return len(self._events) if self.model == "per_event" else len(self._last)

    def scores(self, now: datetime) -> dict[str, float]:
        """Decayed score of every used skill at ``now`` (unused skills are absent: score 0)."""
        hl, floor = self._hl, self.floor
        if self.model == "per_event":
            if hl is None:
                return {name: float(len(ev)) for name, ev in self._events.items()}
            now_ts = timestamp(now)
            return {
                name: math.fsum(_weight(now_ts - ts, hl, floor) for ts in ev)
                for name, ev in self._events.items()
            }
        if hl is None:
            return {name: c for name, (c, _) in self._last.items()}
        now_ts = timestamp(now)
        return {name: c * _weight(now_ts - ts, hl, floor) for name, (c, ts) in self._last.items()}

    def ranked(self, now: datetime) -> Mapping[str, float]:
        """``scores(now)``, as ``RankedScores`` for ``last_use``: the same values, plus a lazy
        ranking that spares listings of a long history the full sort (see ``_ranked``)."""
        if self.model == "per_event" or len(self._last) < RANKED_FROM:
            return self.scores(now)
        hl, floor = self._hl, self.floor
        if self._columns is None:
            self._columns = Columns()
            for name, (c, ts) in self._last.items():
                self._columns.set(name, c, ts)

        def exact(count: float, age: float) -> float:
            return count if hl is None else count * _weight(age, hl, floor)

        return RankedScores(self._columns, timestamp(now), hl, floor, exact)

    def copy(self) -> UsageTracker:
        """An independent tracker with the same settings and history."""
        other = UsageTracker(self.half_life, self.floor, self.model)
        other._last = {k: list(v) for k, v in self._last.items()}
        other._events = {k: list(v) for k, v in self._events.items()}
        other._columns = None if self._columns is None else self._columns.copy()
        return other

    def to_json(self) -> dict[str, LastUseRecord] | dict[str, EventsRecord]:
        """The persisted form: counts and last use, or event lists for ``per_event``."""
        if self.model == "per_event":
            return {
                n: EventsRecord(events=[_iso(ts) for ts in sorted(ev)])
                for n, ev in self._events.items()
            }
        return {
            n: LastUseRecord(count=int(c), last_used=_iso(ts)) for n, (c, ts) in self._last.items()
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2, sort_keys=True) + "\n")

    @classmethod
    def load(
        cls,
        path: str | Path,
        half_life: timedelta | str | float | None = DEFAULT_HALF_LIFE,
        floor: float = DEFAULT_FLOOR,
        model: UsageModel = "last_use",
    ) -> UsageTracker:
        """Read a usage file written by ``save`` (either form works with either model).

        A ``count``/``last_used`` record read by a ``per_event`` tracker becomes ``count``
        events at ``last_used``; an ``events`` record read by ``last_use`` becomes its length
        and latest event. Errors name the file and the offending field.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise SkillbenchError(f"{path}: cannot read usage file: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise InputError(Location(str(path), exc.lineno), f"invalid JSON: {exc.msg}") from None
        return cls.from_json(data, half_life, floor, model, source=str(path))

    @classmethod
    def from_json(
        cls,
        data: object,
        half_life: timedelta | str | float | None = DEFAULT_HALF_LIFE,
        floor: float = DEFAULT_FLOOR,
        model: UsageModel = "last_use",
        source: str = "<usage>",
    ) -> UsageTracker:
        """Build a tracker from the JSON form (see ``load``)."""
        tracker = cls(half_life, floor, model)
        if not isinstance(data, Mapping):
            raise InputError(Location(source), "expected an object mapping skill names to records")
        for name, record in data.items():
            for ts, n in _record_uses(record, Location(source, field=str(name))):
                tracker._add(str(name), ts, n)
        return tracker

    def _add(self, skill: str, ts: float, n: int) -> None:
        if n <= 0:
            return
        if self.model == "per_event":
            self._events.setdefault(skill, []).extend([ts] * n)
        else:
            entry = self._last.setdefault(skill, [0.0, ts])
            entry[0] += n
            entry[1] = max(entry[1], ts)
            if self._columns is not None:
                self._columns.set(skill, entry[0], entry[1])


def _weight(age: float, half_life: float, floor: float) -> float:
    if age <= 0:
        return 1.0
    w = 0.5 ** (age / half_life)
    return w if w > floor else floor


def _record_uses(record: object, where: Location) -> Iterable[tuple[float, int]]:
    """``(time, uses)`` pairs of one skill's record, in either persisted form."""
    if not isinstance(record, Mapping):
        raise InputError(where, "expected an object with 'count' and 'last_used' or 'events'")
    if "events" in record:
        events = record["events"]
        field = f"{where.field}.events"
        if not isinstance(events, list):
            raise InputError(Location(where.file, field=field), "expected a list of ISO-8601 times")
        return [
            (_parse_time(e, Location(where.file, field=f"{field}[{i}]")), 1)
            for i, e in enumerate(events)
        ]
    count, last = record.get("count"), record.get("last_used")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InputError(
            Location(where.file, field=f"{where.field}.count"),
            f"expected a non-negative integer, got {count!r}",
        )
    ts = _parse_time(last, Location(where.file, field=f"{where.field}.last_used"))
    return [(ts, count)]


def _parse_time(value: object, where: Location) -> float:
    if not isinstance(value, str):
        raise InputError(where, f"expected an ISO-8601 time string, got {value!r}")
    try:
        return timestamp(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        raise InputError(where, f"invalid ISO-8601 time {value!r}") from None
