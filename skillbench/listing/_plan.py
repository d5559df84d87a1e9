"""Rendering entry points: ``render_listing`` (one-off) and ``ListingPlan`` (many renders).

Both classify skills (disabled, inactive, listable), order the listable ones and hand the
renderer's entries to its layout, so they produce identical listings. ``ListingPlan`` formats
every entry and sorts the static keys once; each render then only sorts the skills that have
a usage score and, for profiles that stop at the budget (codebot), only walks the listing
until the first entry that does not fit.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterator, Mapping, Sequence
from operator import itemgetter
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.catalog import Skill
from skillbench.listing._orderings import Ordering, UsageOrdering, get_ordering
from skillbench.listing._profile import make_renderer
from skillbench.listing._renderer import (
    Entry,
    Layout,
    PreparedLayout,
    PreparesLayout,
    Renderer,
    RenderOptions,
)
from skillbench.listing._types import EntryStatus, ListedSkill, Listing
from skillbench.usage import RankedScores


def _classify(
    renderer: Renderer, skills: Sequence[Skill], inactive: Collection[str]
) -> tuple[list[int], dict[int, tuple[EntryStatus, str]]]:
    """Indices of listable skills, and the status and reason of the others (disabled wins
    over a profile's own rule, which wins over inactive). A renderer with ``lists_disabled``
    models an agent that does not read ``disable-model-invocation``."""
    listable: list[int] = []
    excluded: dict[int, tuple[EntryStatus, str]] = {}
    for i, s in enumerate(skills):
        why = renderer.hidden(s)
        if s.disable_model_invocation and not getattr(renderer, "lists_disabled", False):
            excluded[i] = ("disabled", "")
        elif why is not None:
            excluded[i] = ("hidden", why)
        elif s.name in inactive:
            excluded[i] = ("inactive", "")
        else:
            listable.append(i)
    return listable, excluded


def listable_indices(
    skills: Sequence[Skill],
    *,
    profile: str = "codebot",
    inactive: Collection[str] = frozenset(),
    options: RenderOptions | None = None,
) -> tuple[int, ...]:
    """Catalog indices of the skills ``profile`` may list (model-invocable, not hidden by a
    profile rule, active): what any of its listings can show, whatever the budget."""
    return tuple(_classify(make_renderer(profile, options), skills, inactive)[0])


def _budget(renderer: Renderer, budget: int | None) -> int | None:
    if not renderer.budgeted:
        return None
    if budget is None:
        return renderer.default_budget
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise SkillbenchError(f"budget must be a non-negative integer, got {budget!r}")
    return budget


def _listing(
    renderer: Renderer,
    budget: int | None,
    skills: Sequence[Skill],
    layout: Layout,
    excluded: Mapping[int, tuple[EntryStatus, str]],
    within: Collection[int] | None = None,
) -> Listing:
    """Wrap ``layout`` as a Listing whose entry records are built only when read; with
    ``within`` (catalog indices) the listing knows only those skills."""
    placed = layout.placed
    memo: list[list[ListedSkill]] = []

    def shown() -> list[ListedSkill]:
        if not memo:
            memo.append(
                [
                    ListedSkill(
                        skills[p.skill_index],
                        p.status,
                        pos,
                        p.chars,
                        p.description,
                        p.when,
                        renderer.shown_path(skills[p.skill_index]),
                    )
                    for pos, p in enumerate(placed)
                ]
            )
        return memo[0]

    def entries() -> list[ListedSkill]:
        out = list(shown())
        seen = {p.skill_index for p in placed}
        for i, s in enumerate(skills):
            if i not in seen and (within is None or i in within):
                status, why = excluded.get(i, ("dropped", ""))
                out.append(ListedSkill(s, status, None, 0, path=renderer.shown_path(s), reason=why))
        return out

    names = [skills[p.skill_index].name for p in placed]
    return Listing(
        renderer.name,
        budget,
        layout.text,
        entries,
        used=layout.used,
        shown_names=names,
        warning=layout.warning,
        shown=shown,
    )


def render_listing(
    skills: Sequence[Skill],
    *,
    profile: str = "codebot",
    budget: int | None = None,
    ordering: str | Ordering = "usage",
    scores: Mapping[str, float] | None = None,
    inactive: Collection[str] = frozenset(),
    seed: int = 0,
    options: RenderOptions | None = None,
) -> Listing:
    """Render ``skills`` once: sort every listable skill, format every entry, lay them out.

    Args:
        skills: the catalog, in catalog order.
        profile: profile name (``PROFILES``); ``options`` are its renderer's options.
        budget: characters; ``None`` uses the profile default.
        ordering: ordering spec (``usage``, ``alpha``, ``rotate:3`` …) or an ``Ordering``.
        scores: usage scores by skill name (absent: 0).
        inactive: names of ``paths`` skills with no matching file.
        seed: seed of the ``random`` ordering.
    """
    renderer = make_renderer(profile, options)
    order = get_ordering(ordering) if isinstance(ordering, str) else ordering
    effective = _budget(renderer, budget)
    listable, excluded = _classify(renderer, skills, inactive)
    used = dict(scores or {}) if renderer.uses_scores else {}
    perm = order.order([skills[i] for i in listable], used, seed)
    entries = [renderer.entry(skills[listable[j]], listable[j]) for j in perm]
    layout = renderer.layout(entries, effective, used)
    return _listing(renderer, effective, skills, layout, excluded)


class Place(NamedTuple):
    """A listable skill's place in a plan's ordering: 0-based rank, of how many, and its
    entry's characters in full."""

    rank: int
    of: int
    chars: int


class ListingPlan:
    """A catalog prepared for many renders that differ only in usage scores.

    Same arguments as ``render_listing`` minus ``scores``; ``render(scores)`` returns exactly
    what ``render_listing(..., scores=scores)`` would. A plan whose listing cannot depend on
    usage scores (``uses_scores`` false) renders once and returns the same Listing every time.

    Attributes:
        listable: catalog indices of the skills the profile may list (model-invocable, not
            hidden by a profile rule, active): what a retrieve stage ranks.
        uses_scores: whether usage scores can change the listing: the profile sees them and
            either the ordering reads them (``usage``) or the layout does (a ``least_used``
            drop rule). False for agents without a usage rule in their layout, and
            for codebot with a fixed ordering (``alpha``, ``rotate:N``, ``random``).
    """

    def __init__(
        self,
        skills: Sequence[Skill],
        *,
        profile: str = "codebot",
        budget: int | None = None,
        ordering: str | Ordering = "usage",
        inactive: Collection[str] = frozenset(),
        seed: int = 0,
        options: RenderOptions | None = None,
    ) -> None:
        self.skills = tuple(skills)
        self.renderer = make_renderer(profile, options)
        self.ordering = get_ordering(ordering) if isinstance(ordering, str) else ordering
        self.budget = _budget(self.renderer, budget)
        self.seed = seed
        listable, self._excluded = _classify(self.renderer, self.skills, inactive)
        self.listable = tuple(listable)
        self._slot = {i: j for j, i in enumerate(listable)}
        self._pool = [self.skills[i] for i in listable]
        self._entries = [self.renderer.entry(self.skills[i], i) for i in listable]
        self._fixed: list[Entry] | None = None
        self._cached: Listing | None = None
        self.uses_scores = self.renderer.uses_scores and (
            self.ordering.uses_scores or self.renderer.layout_uses_scores
        )
        self._fast = self.renderer.uses_scores and isinstance(self.ordering, UsageOrdering)
        if self._fast:
            self._prepare_usage()
        elif not (self.renderer.uses_scores and self.ordering.uses_scores):
            self._fixed = [self._entries[j] for j in self.ordering.order(self._pool, {}, seed)]
        self._prepared: PreparedLayout | None = (
            self.renderer.prepare(self._fixed)
            if self._fixed is not None and isinstance(self.renderer, PreparesLayout)
            else None
        )

    def at_budget(self, budget: int | None) -> ListingPlan:
        """The same prepared catalog at another ``budget`` (None: the profile's default):
        entries, ordering and usage structures are shared, nothing is formatted again."""
        other = copy.copy(self)
        other.budget = _budget(self.renderer, budget)
        other._cached = None
        return other

    def render(
        self, scores: Mapping[str, float] | None = None, only: Collection[int] | None = None
    ) -> Listing:
        """The listing under ``scores`` (usage score by skill name; absent means 0).

        ``only`` (catalog indices of listable skills, e.g. a retrieve stage's top k) renders
        the listing of just those skills: same renderer, budget and ordering, as if the
        catalog held nothing else.
        """
        renderer = self.renderer
        used: Mapping[str, float] = (scores or {}) if renderer.uses_scores else {}
        if only is not None:
            slots = sorted(self._slot[i] for i in only)
            perm = self.ordering.order([self._pool[j] for j in slots], used, self.seed)
            entries = [self._entries[slots[p]] for p in perm]
            layout = renderer.layout(entries, self.budget, used)
            return _listing(renderer, self.budget, self.skills, layout, self._excluded, only)
        if self._cached is not None:
            return self._cached
        layout = self.layout(scores)
        listing = _listing(renderer, self.budget, self.skills, layout, self._excluded)
        if not self.uses_scores:
            self._cached = listing
        return listing

    def layout(self, scores: Mapping[str, float] | None = None) -> Layout:
        """The layout ``render(scores)`` wraps: its text and placed entries, without the
        per-skill records a Listing builds when read (a plan's many renders need only
        statuses)."""
        renderer = self.renderer
        used: Mapping[str, float] = (scores or {}) if renderer.uses_scores else {}
        if self._fast:
            ordered = self._usage_order(used)
            return renderer.layout(
                ordered if renderer.stops_early else list(ordered), self.budget, used
            )
        if self._prepared is not None:
            return self._prepared.layout(self.budget, used)
        if self._fixed is not None:
            return renderer.layout(self._fixed, self.budget, used)
        perm = self.ordering.order(self._pool, used, self.seed)
        return renderer.layout([self._entries[j] for j in perm], self.budget, used)

    def place_of(self, name: str, scores: Mapping[str, float] | None = None) -> Place | None:
        """Where the ordering puts the listable skill ``name`` under ``scores`` and how long
        its entry is: what a budget cut it at (None: the skill is not listable)."""
        used: Mapping[str, float] = (scores or {}) if self.renderer.uses_scores else {}
        if self._fast:
            ordered: Sequence[Entry] = list(self._usage_order(used))
        elif self._fixed is not None:
            ordered = self._fixed
        else:
            ordered = [self._entries[j] for j in self.ordering.order(self._pool, used, self.seed)]
        for rank, entry in enumerate(ordered):
            if entry.skill.name == name:
                return Place(rank, len(ordered), len(entry.text))
        return None

    def _prepare_usage(self) -> None:
        """Static part of the usage key, sorted once: group, source priority, name."""
        pool, entries = self._pool, self._entries
        static = sorted(range(len(pool)), key=lambda j: UsageOrdering.static_key(pool[j]))
        self._rank = {entries[j].index: r for r, j in enumerate(static)}
        self._group = {e.index: UsageOrdering.group(s) for e, s in zip(entries, pool, strict=True)}
        groups = [
            [entries[j] for j in static if self._group[entries[j].index] == g] for g in (0, 1)
        ]
        # Without paths skills there is one group and the scored walk needs no filter.
        self._groups: list[tuple[int | None, list[Entry]]] = (
            [(0, groups[0]), (1, groups[1])] if groups[0] else [(None, groups[1])]
        )
        self._by_name: dict[str, list[Entry]] = {}
        for j in static:
            self._by_name.setdefault(pool[j].name, []).append(entries[j])

    def _usage_order(self, scores: Mapping[str, float]) -> Iterator[Entry]:
        """Entries in ``UsageOrdering`` order, lazily: per group, positive scores high first,
        then the unscored skills in static order, then negative scores.

        ``RankedScores`` (never negative) are ranked lazily; a plain mapping is sorted."""
        items: Sequence[tuple[str, float]]
        if isinstance(scores, RankedScores):
            items, negative = scores.ranked(), []
        else:
            items = sorted(scores.items(), key=itemgetter(1), reverse=True)
            negative = [it for it in items if it[1] < 0]
        scored: set[str] | None = None
        for g, static in self._groups:
            yield from self._walk(items, g)
            if scored is None:
                scored = (
                    scores.nonzero()
                    if isinstance(scores, RankedScores)
                    else {name for name, s in items if s}
                )
            yield from (e for e in static if e.skill.name not in scored)
            yield from self._walk(negative, g, positive=False)

    def _walk(
        self, items: Sequence[tuple[str, float]], g: int | None, positive: bool = True
    ) -> Iterator[Entry]:
        """Entries of scored skills in ``items`` order (ties by static rank), group ``g``."""
        by_name, group, n, i = self._by_name, self._group, len(items), 0
        while i < n:
            s = items[i][1]
            if positive and not s > 0:
                return
            j = i + 1
            while j < n and items[j][1] == s:
                j += 1
            if j == i + 1:
                run = by_name.get(items[i][0], ())
            else:
                run = [e for name, _ in items[i:j] for e in by_name.get(name, ())]
                run.sort(key=lambda e: self._rank[e.index])
            for e in run:
                if g is None or group[e.index] == g:
                    yield e
            i = j
