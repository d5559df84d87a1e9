"""One catalog under one profile, rendered as often as the plan needs, and each skill's fate.

Every listing comes from the profile's own renderer (``ListingPlan``), so a plan predicts
exactly what ``render`` shows; a fate is the listing status restated in the plan's terms
with the rule behind it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, get_args

from skillbench.catalog import Catalog, Skill
from skillbench.listing import (
    PROFILES,
    EntryStatus,
    Listing,
    ListingPlan,
    Profile,
    RenderOptions,
    explain,
)
from skillbench.planner._records import PlanFate, Reason, SkillFate

UNLIMITED = 10**9
"""A budget no catalog reaches: the listing with every description in full."""

_EXCLUDED: Mapping[str, tuple[Reason, str]] = {
    "disabled": ("flags", "disable-model-invocation"),
    "inactive": ("paths", "paths"),
    "hidden": ("profile_rule", "profile rule"),
}


class ShownEntry(NamedTuple):
    """An entry a listing shows: its skill's name and its status."""

    name: str
    status: EntryStatus


@dataclass
class Setup:
    """A catalog, a profile and its options (the listing's budget varies per render).

    ``budget`` is the budget of ``render(None)`` for a profile that takes it as no option
    (None: the profile's default); ``descriptions`` replaces skills' descriptions (name →
    text), for trimmed catalogs.
    """

    catalog: Catalog
    profile: Profile
    options: RenderOptions
    budget: int | None = None
    descriptions: Mapping[str, str] = field(default_factory=dict)
    _plans: dict[int | None, ListingPlan] = field(default_factory=dict, repr=False)
    _skills: tuple[Skill, ...] | None = field(default=None, repr=False)

    @property
    def skills(self) -> tuple[Skill, ...]:
        if self._skills is None:
            self._skills = tuple(
                s.with_description(self.descriptions[s.name]) if s.name in self.descriptions else s
                for s in self.catalog.skills
            )
        return self._skills

    def trimmed(self, descriptions: Mapping[str, str]) -> Setup:
        """The same setup with ``descriptions`` replacing the catalog's."""
        return Setup(self.catalog, self.profile, self.options, self.budget, dict(descriptions))

    def render(
        self, budget: int | None = None, scores: Mapping[str, float] | None = None
    ) -> Listing:
        """The listing at ``budget`` (None: the profile's default) under usage ``scores``."""
        return self.plan(budget).render(scores)

    def shown(
        self, budget: int | None = None, scores: Mapping[str, float] | None = None
    ) -> list[ShownEntry]:
        """Name and status of each entry ``render(budget, scores)`` shows, in order, without
        building its entry records (the timeline and the coverage curve need only these)."""
        skills = self.skills
        placed = self.plan(budget).layout(scores).placed
        return [ShownEntry(skills[p.skill_index].name, p.status) for p in placed]

    def plan(self, budget: int | None) -> ListingPlan:
        """The prepared renderer at ``budget``: the catalog is formatted and ordered once,
        each budget shares that work; the default's and the unlimited one are kept."""
        if None not in self._plans:
            self._plans[None] = ListingPlan(
                self.skills,
                profile=self.profile.name,
                budget=self.budget,
                ordering=self.profile.ordering,
                inactive=self.catalog.inactive,
                options=self.options,
            )
        plan = self._plans.get(budget)
        if plan is not None:
            return plan
        plan = self._plans[None].at_budget(budget)
        if budget == UNLIMITED:
            self._plans[budget] = plan
        return plan

    @property
    def full(self) -> Listing:
        """The listing with room for everything."""
        return self.render(UNLIMITED)

    def fates(self, listing: Listing) -> list[SkillFate]:
        """Every skill's fate in ``listing``, then the skills the loader set aside."""
        full = {e.name: e.status for e in self.full.entries}
        ranked = self.plan(UNLIMITED).uses_scores
        rows = []
        for row in explain(listing, self.catalog, self.options):
            entry = listing.entry(row.name) if row.fate != "overridden" else None
            fate, reason = _fate(row.fate, full.get(row.name), ranked)
            chars = len(entry.description) if entry is not None and fate == "cut" else None
            rows.append(
                SkillFate(
                    name=row.name,
                    source=row.source,
                    fate=fate,
                    chars=chars,
                    position=row.position,
                    reason=reason,
                    why=row.why,
                )
            )
        rows += [
            SkillFate(
                name=d.path,
                source="",
                fate="not_loaded",
                chars=None,
                position=None,
                reason="loader_rule",
                why=d.reason,
            )
            for d in self.catalog.diagnostics
            if d.severity == "error"
        ]
        return rows

    def tally(self, shown: Sequence[ShownEntry]) -> dict[str, int]:
        """``counts(self.fates(listing))`` from the listing's shown entries alone (a step of
        the timeline needs no per-skill rows)."""
        found = Counter(_fate(e.status, None, False)[0] for e in shown)
        loaded = len(self.catalog.skills)
        found["hidden"] = loaded - len(shown)
        found["not_loaded"] = len(self.catalog.overrides) + sum(
            1 for d in self.catalog.diagnostics if d.severity == "error"
        )
        return {fate: found[fate] for fate in get_args(PlanFate)}


def _fate(status: str, full_status: str | None, ranked: bool) -> tuple[PlanFate, Reason]:
    if status == "full":
        return "full", "fits"
    if status == "truncated":
        return "cut", "entry_cap" if full_status == "truncated" else "budget"
    if status == "name_only":
        return "name_only", "usage_rank" if ranked else "budget"
    if status == "dropped":
        return "hidden", "budget"
    if status == "overridden":
        return "not_loaded", "loader_rule"
    return "hidden", _EXCLUDED[status][0]


def counts(fates: Sequence[SkillFate]) -> dict[str, int]:
    """How many skills have each fate (every fate named, zeros included)."""
    found = Counter(f.fate for f in fates)
    return {fate: found[fate] for fate in get_args(PlanFate)}


def profile_named(name: str) -> Profile:
    """The registered profile ``name`` (``AGENT`` or ``AGENT@VERSION``)."""
    return PROFILES.get(name)
