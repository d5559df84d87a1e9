"""Why a skill a turn expected did or did not fire, from the listing its session recorded.

A turn that expected a skill which was not invoked failed at one of three places, and each
calls for a different fix: the agent did not list the skill (load it, drop its ``paths`` or
flag, or make room in the budget), listed it only by name or with its description cut
(shorten the listing), or listed it in full and the model still passed it over (rewrite
the description). Each expected skill of a turn gets one class:

- ``invoked_by_user``: the user typed it (``/name``, ``$name``);
- ``invoked_by_model``: the model invoked it;
- ``listed_not_invoked``: listed in full, not invoked;
- ``listed_cut``: listed by name only or with its description cut;
- ``not_listed``: absent from the listing, with the reason when something tells it: the
  catalog's ``paths`` or ``disable-model-invocation``, a listing that says its budget left
  skills out, or ``not_loaded`` when a catalog was given and neither hides the skill;
- ``listing_unknown``: the session recorded no listing, so nothing can be said.

The listing a turn is judged by is what the session had listed when the turn ended: a full
listing replaces the one before, a delta adds its entries. A sub-agent without a listing of
its own is judged by its parent session's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, get_args

from skillbench.catalog import Skill
from skillbench.transcripts._listed import CUT_MARKS, entry_names
from skillbench.transcripts._types import ImportedRequest, RecordedListing

TurnClass = Literal[
    "not_listed",
    "listed_cut",
    "listed_not_invoked",
    "invoked_by_model",
    "invoked_by_user",
    "listing_unknown",
]
TURN_CLASSES: tuple[TurnClass, ...] = get_args(TurnClass)
Shown = Literal["full", "cut", "name_only", "absent", "unknown"]
"""How the session's listing showed the skill when the turn ended."""
NotListedReason = Literal["paths", "disable-model-invocation", "budget", "not_loaded"]


class SkillClass(NamedTuple):
    """One expected skill of a turn: its class, how it was listed and, when it was not
    listed, why (None when neither the log nor the catalog tells)."""

    skill: str
    turn_class: TurnClass
    shown: Shown
    reason: NotListedReason | None = None

    def record(self) -> dict[str, str]:
        out = {"skill": self.skill, "class": self.turn_class, "listed": self.shown}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def class_text(record: object) -> str | None:
    """``skill: class (detail)`` for one class as ``SkillClass.record`` writes it, the detail
    being why it was not listed or how it was cut; None for anything else."""
    if not isinstance(record, Mapping) or not isinstance(record.get("class"), str):
        return None
    cut = record.get("listed") if record["class"] == "listed_cut" else None
    detail = record.get("reason") or cut
    return f"{record.get('skill')}: {record['class']}" + (f" ({detail})" if detail else "")


@dataclass
class _SessionSeen:
    """What one session has listed so far: how each name was shown (no text is kept, so
    memory does not grow with the listings' size)."""

    shown: dict[str, Shown] = field(default_factory=dict)
    omits: bool = False
    """The last full listing says the budget left skills out."""


class SessionListings:
    """The listing each session has shown so far, fed in file order, and the classes of
    the turns judged by it.

    Args:
        skills: the catalog given to the import (may be empty): it says which skills a
            ``paths`` rule or a flag keeps out of the listing, and what a description
            shown in full reads.
    """

    def __init__(self, skills: Iterable[Skill] = ()) -> None:
        self._skills = {s.name: s for s in skills}
        self._seen: dict[str, _SessionSeen] = {}

    def add(self, listing: RecordedListing) -> None:
        seen = self._seen.get(listing.session)
        if seen is None or listing.initial:
            seen = self._seen[listing.session] = _SessionSeen(omits=listing.omits)
        for entry in listing.entries:
            for name in entry_names(entry):
                seen.shown[name] = self._how(name, entry.text)
        for name in listing.names:
            seen.shown.setdefault(name, "name_only")

    def classify(self, request: ImportedRequest) -> tuple[SkillClass, ...]:
        """One class per expected skill of ``request`` (none when it expects none)."""
        seen = self._seen.get(request.session) or self._seen.get(request.session.split("/")[0])
        return tuple(self._one(name, request, seen) for name in request.expected)

    def _one(self, name: str, request: ImportedRequest, seen: _SessionSeen | None) -> SkillClass:
        shown: Shown = "unknown" if seen is None else seen.shown.get(name, "absent")
        if name in request.by_user:
            return SkillClass(name, "invoked_by_user", shown)
        if name in request.by_model:
            return SkillClass(name, "invoked_by_model", shown)
        if shown == "unknown":
            return SkillClass(name, "listing_unknown", shown)
        if shown == "absent":
            return SkillClass(name, "not_listed", shown, self._why_absent(name, seen))
        if shown == "full":
            return SkillClass(name, "listed_not_invoked", shown)
        return SkillClass(name, "listed_cut", shown)

    def _how(self, name: str, text: str) -> Shown:
        """How an entry showing ``text`` for ``name`` shows the skill (both unredacted)."""
        if not text:
            return "name_only"
        if text.endswith(CUT_MARKS):
            return "cut"
        skill = self._skills.get(name)
        if skill is not None and not _flat(text).startswith(_flat(skill.description)):
            return "cut"
        return "full"

    def _why_absent(self, name: str, seen: _SessionSeen | None) -> NotListedReason | None:
        skill = self._skills.get(name)
        if skill is not None and skill.paths:
            return "paths"
        if skill is not None and not skill.model_invocable:
            return "disable-model-invocation"
        if seen is not None and seen.omits:
            return "budget"
        return "not_loaded" if self._skills else None


def _flat(text: str) -> str:
    """``text`` with its whitespace runs as single spaces (listings put entries on one line)."""
    return " ".join(text.split())
