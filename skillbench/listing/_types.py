"""What a renderer returns: the exact listing text and the fate of every skill."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from skillbench.catalog import Skill

EntryStatus = Literal["full", "truncated", "name_only", "dropped", "disabled", "inactive"]
"""full/truncated/name_only are shown; dropped = cut by the budget; disabled =
``disable-model-invocation``; inactive = ``paths`` skill with no matching file."""

SHOWN_STATUSES: frozenset[EntryStatus] = frozenset({"full", "truncated", "name_only"})


@dataclass(frozen=True, slots=True)
class ListedSkill:
    """One skill's fate in a listing.

    ``description`` and ``when`` hold the text *as shown* (cut when truncated, empty when
    name-only): selectors must judge a skill by this, never by the catalog's full text.
    """

    skill: Skill
    status: EntryStatus
    position: int | None
    chars: int
    description: str = ""
    when: str | None = None

    @property
    def name(self) -> str:
        return self.skill.name

    @property
    def shown(self) -> bool:
        return self.status in SHOWN_STATUSES


@dataclass(frozen=True, slots=True)
class Listing:
    """A rendered listing.

    Attributes:
        profile: renderer name (codebot, claude-code, codex, openharness).
        budget: the budget applied (characters), ``None`` when the profile has none.
        text: exactly what the model sees, wrapper included.
        entries: every catalog skill, shown ones first in listing order, then the rest.
    """

    profile: str
    budget: int | None
    text: str
    entries: tuple[ListedSkill, ...]

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def shown(self) -> tuple[ListedSkill, ...]:
        """Shown entries in listing order."""
        return tuple(e for e in self.entries if e.position is not None)

    def entry(self, name: str) -> ListedSkill | None:
        """The entry for ``name`` (exact skill name), or None when the skill is not in the catalog."""
        for e in self.entries:
            if e.skill.name == name:
                return e
        return None
