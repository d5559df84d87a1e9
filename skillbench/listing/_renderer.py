"""The renderer contract: per-skill entries formatted once, then laid out under a budget.

Rendering is split in two so that ``ListingPlan`` can format every entry once and re-run
only the cheap part (ordering and budget) per request:

- ``entry(skill)`` formats one skill's entry with the per-entry caps applied;
- ``layout(ordered, budget, scores)`` lays out entries already in listing order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, runtime_checkable

from skillbench.catalog import Skill
from skillbench.listing._snapshot import AgentSnapshot
from skillbench.listing._types import EntryStatus
from skillbench.types import JsonValue

ELLIPSIS = "…"


def one_line(text: str | None) -> str:
    """``text`` with every run of whitespace (newlines included) collapsed to one space.

    Every profile's format is line-based, so a multi-line YAML description would otherwise
    break the listing and make per-line caps meaningless.
    """
    return " ".join(text.split()) if text else ""


def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the ellipsis counted within the limit."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS if limit > 0 else ""


class Placed(NamedTuple):
    """A shown entry as laid out: catalog index, status, characters and shown text."""

    skill_index: int
    status: EntryStatus
    chars: int
    description: str
    when: str | None


@dataclass(frozen=True, slots=True)
class Entry:
    """One skill's entry for one profile, formatted once.

    Attributes:
        skill: the skill.
        index: its position in the catalog passed to the renderer.
        text: the entry as shown in full (per-entry caps applied).
        status: ``full``, or ``truncated`` when a per-entry cap cut it.
        description / when: the text as shown in ``text``.
        short: the name-only form (profiles that degrade to names), else "".
        body: the description part alone, uncut (profiles that share description room).
    """

    skill: Skill
    index: int
    text: str
    status: EntryStatus
    description: str
    when: str | None = None
    short: str = ""
    body: str = ""
    placed: Placed = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shown = Placed(self.index, self.status, len(self.text), self.description, self.when)
        object.__setattr__(self, "placed", shown)


class Layout(NamedTuple):
    """What ``layout`` produced: listing text, budget units counted, shown entries in order,
    and the warning the agent would show its user (None: none)."""

    text: str
    used: int | None
    placed: list[Placed]
    warning: str | None = None


@runtime_checkable
class Renderer(Protocol):
    """A profile: how one agent renders its listing.

    Attributes:
        name: profile name.
        default_budget: budget in characters when none is given (``None``: unlimited).
        budgeted: False for profiles without any budget; a given budget is then ignored.
        uses_scores: whether usage scores reach this profile (ordering, drop rules); profiles
            that have no usage tracking see none, whatever the ordering.
        layout_uses_scores: whether ``layout`` itself reads ``scores`` (a drop rule keyed on
            usage); with a score-free ordering the listing is then still fixed.
        stops_early: ``layout`` may stop consuming ``ordered`` before its end, so callers may
            pass a lazy iterator.
    """

    @property
    def name(self) -> str: ...

    @property
    def default_budget(self) -> int | None: ...

    @property
    def budgeted(self) -> bool: ...

    @property
    def uses_scores(self) -> bool: ...

    @property
    def layout_uses_scores(self) -> bool: ...

    @property
    def stops_early(self) -> bool: ...

    def entry(self, skill: Skill, index: int) -> Entry: ...

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        """The profile's rule, in words, behind each status it can give a skill."""
        ...

    def hidden(self, skill: Skill) -> str | None:
        """Why the agent never lists ``skill`` (a profile rule, in words), or None."""
        ...

    def shown_path(self, skill: Skill) -> str | None:
        """The skill's file as the listing shows it, or None when the listing shows none."""
        ...

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout: ...


class PreparedLayout(Protocol):
    """One ordering's entries laid out at any budget and usage scores."""

    def layout(self, budget: int | None, scores: Mapping[str, float]) -> Layout: ...


@runtime_checkable
class PreparesLayout(Protocol):
    """A renderer whose layouts of one fixed ordering share work done once (``prepare``);
    ``ListingPlan`` uses it for every render of a catalog whose order usage cannot change."""

    def prepare(self, ordered: Sequence[Entry]) -> PreparedLayout: ...


RendererFactory = Callable[..., Renderer]
"""Builds a profile's renderer from its options given as keyword arguments."""

RenderOptions = Mapping[str, JsonValue | AgentSnapshot]
"""A profile's renderer options by name: JSON values as a config or ``--option`` gives them,
or an ``AgentSnapshot`` handed over in code (the ``snapshot`` option)."""
