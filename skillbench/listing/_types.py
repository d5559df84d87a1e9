"""What a renderer returns: the exact listing text and the fate of every skill."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from skillbench.catalog import Skill

EntryStatus = Literal["full", "truncated", "name_only", "dropped", "disabled", "inactive", "hidden"]
"""full/truncated/name_only are shown; dropped = cut by the budget; disabled =
``disable-model-invocation``; inactive = ``paths`` skill not active yet; hidden = a profile
rule never lists it (``ListedSkill.reason`` says which)."""

SHOWN_STATUSES: frozenset[EntryStatus] = frozenset({"full", "truncated", "name_only"})


@dataclass(frozen=True, slots=True)
class ListedSkill:
    """One skill's fate in a listing.

    ``description`` and ``when`` hold the text *as shown* (cut when truncated, empty when
    name-only): selectors must judge a skill by this, never by the catalog's full text.
    ``path`` is the skill's file as the listing shows it (None when the profile shows none);
    ``reason`` says which profile rule hid it (``hidden`` only).
    """

    skill: Skill
    status: EntryStatus
    position: int | None
    chars: int
    description: str = ""
    when: str | None = None
    path: str | None = None
    reason: str = ""

    @property
    def name(self) -> str:
        return self.skill.name

    @property
    def shown(self) -> bool:
        return self.status in SHOWN_STATUSES


class Listing:
    """A rendered listing (immutable).

    Attributes:
        profile: renderer name (codebot, an agent's name, …).
        budget: the budget applied (characters), ``None`` when the profile has none.
        text: exactly what the model sees, wrapper included.
        entries: every catalog skill, shown ones first in listing order, then the rest in
            catalog order.
        used: characters the profile counts against ``budget`` (see each renderer), never
            above it; ``None`` when unknown.
        shown_names: names of the shown skills in listing order (needs no entry records).
        warning: what the agent would tell its user about this listing (None: nothing).

    Renderers may pass ``entries`` as a zero-argument callable: the entry records are then
    built on first access, so a replay that only reads ``text`` and ``shown_names`` pays
    nothing for them. With it they may pass ``shown``, building only the shown records:
    selectors read those, and a big catalog's listing shows a small part of it.
    """

    __slots__ = (
        "_entries",
        "_index",
        "_make",
        "_make_shown",
        "_shown",
        "budget",
        "profile",
        "shown_names",
        "text",
        "used",
        "warning",
    )
    profile: str
    budget: int | None
    text: str
    used: int | None
    shown_names: tuple[str, ...]
    warning: str | None
    _entries: tuple[ListedSkill, ...] | None
    _make: Callable[[], Sequence[ListedSkill]] | None
    _index: dict[str, ListedSkill] | None
    _shown: tuple[ListedSkill, ...] | None
    _make_shown: Callable[[], Sequence[ListedSkill]] | None

    def __init__(
        self,
        profile: str,
        budget: int | None,
        text: str,
        entries: Sequence[ListedSkill] | Callable[[], Sequence[ListedSkill]],
        *,
        used: int | None = None,
        shown_names: Sequence[str] | None = None,
        warning: str | None = None,
        shown: Callable[[], Sequence[ListedSkill]] | None = None,
    ) -> None:
        init = object.__setattr__
        init(self, "profile", profile)
        init(self, "warning", warning)
        init(self, "budget", budget)
        init(self, "text", text)
        init(self, "used", used)
        init(self, "_index", None)
        init(self, "_shown", None)
        init(self, "_make_shown", shown)
        if callable(entries):
            init(self, "_entries", None)
            init(self, "_make", entries)
        else:
            init(self, "_entries", tuple(entries))
            init(self, "_make", None)
        if shown_names is None:
            shown_names = [e.skill.name for e in self.entries if e.position is not None]
        init(self, "shown_names", tuple(shown_names))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Listing is immutable")

    def __getstate__(self) -> dict[str, object]:
        """Pickled (e.g. shipped to another process) with its entry records built."""
        self.entries  # noqa: B018  (builds them)
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    @property
    def entries(self) -> tuple[ListedSkill, ...]:
        if self._entries is None:
            assert self._make is not None
            object.__setattr__(self, "_entries", tuple(self._make()))
            object.__setattr__(self, "_make", None)
        assert self._entries is not None
        return self._entries

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def shown(self) -> tuple[ListedSkill, ...]:
        """Shown entries in listing order (built alone when the renderer can, without the
        records of a large catalog's unshown skills)."""
        if self._shown is None:
            if self._entries is None and self._make_shown is not None:
                shown = tuple(self._make_shown())
            else:
                shown = tuple(e for e in self.entries if e.position is not None)
            object.__setattr__(self, "_shown", shown)
            object.__setattr__(self, "_make_shown", None)
        assert self._shown is not None
        return self._shown

    def position(self, name: str) -> int | None:
        """0-based listing position of the skill named ``name``, None when not shown."""
        try:
            return self.shown_names.index(name)
        except ValueError:
            return None

    def entry(self, name: str) -> ListedSkill | None:
        """The entry for ``name`` (exact skill name); None when it is not in the catalog."""
        if self._index is None:
            index: dict[str, ListedSkill] = {}
            for e in self.entries:
                index.setdefault(e.skill.name, e)
            object.__setattr__(self, "_index", index)
        assert self._index is not None
        return self._index.get(name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Listing):
            return NotImplemented
        return (self.profile, self.budget, self.text, self.used, self.entries) == (
            other.profile,
            other.budget,
            other.text,
            other.used,
            other.entries,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Listing(profile={self.profile!r}, budget={self.budget!r}, chars={self.chars}, "
            f"shown={len(self.shown_names)})"
        )
