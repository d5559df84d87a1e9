"""Everything a run prepares before replaying: requests, catalogs, plans, cells, selectors,
usage trackers.

Work shared between cells is done here once: one catalog load per (variant, profile), one
``ListingPlan`` per (variant, profile, budget, ordering), one selector per config entry
(selectors fitted per cell, ``threshold: auto``, get one instance per cell instead).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skillbench._errors import InputError, SkillbenchError
from skillbench.cache import default_cache_root
from skillbench.catalog import Catalog, load_catalog
from skillbench.dataset import (
    LabelledRequest,
    apply_labels,
    assign_timeline,
    check_expected,
    load_labels,
    load_requests,
)
from skillbench.listing import PROFILES, ListingPlan, SnapshotUse, listable_indices
from skillbench.replay._experiment import (
    CalibrationSpec,
    CatalogVariant,
    GridSpec,
    RequestSource,
    SelectorSpec,
)
from skillbench.replay._sizes import SizedCatalog, anchor_requests, plan_sizes
from skillbench.replay._types import Cell
from skillbench.selectors import (
    DEFAULT_MODEL,
    SELECTORS,
    Calibratable,
    Embedder,
    Selector,
    SelectorEnv,
)
from skillbench.types import CellKey, JsonObject


def replay_order(request: LabelledRequest) -> tuple[Any, ...]:
    """Requests replay by time, then session, turn and id (a total, stable order)."""
    return (request.at, request.session or "", request.turn or 0, request.id)


def prepare_requests(source: RequestSource) -> list[LabelledRequest]:
    """The requests in replay order: the first ``limit`` of the file, timeline filled in."""
    requests = load_requests(source.path)
    if source.labels is not None:
        requests = apply_labels(requests, load_labels(source.labels), source.labels)
    if source.limit is not None:
        requests = requests[: source.limit]
    if any(r.at is None for r in requests):
        requests = assign_timeline(requests, seed=source.timeline_seed, days=source.timeline_days)
    return sorted(requests, key=replay_order)


def train_split(
    requests: Sequence[LabelledRequest], calibration: CalibrationSpec
) -> frozenset[str]:
    """Ids of the calibration train split: a seeded share of positives and of negatives."""
    rng = random.Random(f"skillbench-split-{calibration.seed}")
    train: set[str] = set()
    for positive in (True, False):
        ids = sorted(r.id for r in requests if r.positive is positive)
        rng.shuffle(ids)
        train.update(ids[: round(len(ids) * calibration.train_fraction)])
    return frozenset(train)


@dataclass
class Grid:
    """The prepared run: cells in canonical order and what they share."""

    requests: list[LabelledRequest]
    catalogs: dict[tuple[str, str], Catalog]
    plans: dict[Cell, ListingPlan]
    cells: list[Cell]
    selectors: dict[str, SelectorSpec]
    train: frozenset[str] = frozenset()
    duplicates: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    agents: dict[str, JsonObject] = field(default_factory=dict)
    """What a catalog-size sweep drew or skipped (anchor sample, unusable sizes)."""

    @property
    def decisions(self) -> int:
        return len(self.cells) * len(self.requests)


def load_variant(spec: GridSpec, variant: CatalogVariant, profile: str) -> Catalog:
    """The catalog of ``variant`` under ``profile``'s precedence rules."""
    return load_catalog(list(variant.sources), profile=profile, cwd=spec.cwd)


def build_grid(spec: GridSpec) -> Grid:
    """Load requests and catalogs, build the plans and enumerate the cells."""
    requests = prepare_requests(spec.requests)
    notes: list[str] = []
    if spec.sweep is not None:
        requests, notes = anchor_requests(requests, spec.sweep.anchors, spec.seed)
    catalogs: dict[tuple[str, str], Catalog] = {}
    for source in spec.catalogs:
        for profile in spec.profiles:
            catalog = load_variant(spec, source, profile)
            if not catalog.skills:
                raise InputError(
                    source.where,
                    f"catalog {source.name!r} holds no skills (profile {profile})",
                )
            check_expected(requests, catalog, label=source.name)
            catalogs[source.name, profile] = catalog
    plans: dict[Cell, ListingPlan] = {}
    cells: list[Cell] = []
    seen: set[tuple[Any, ...]] = set()
    duplicates: list[str] = []
    for (variant, profile), full in catalogs.items():
        for level in _levels(spec, variant, profile, full, requests, notes):
            for budget in spec.budgets:
                for ordering in spec.orderings:
                    plan = ListingPlan(
                        level.catalog.skills,
                        profile=profile,
                        budget=budget,
                        ordering=ordering,
                        inactive=full.inactive,
                        seed=spec.seed,
                        options=spec.profile_options.get(profile),
                    )
                    effective = plan.budget
                    setting = (variant, profile, level.size, level.mode, effective, ordering)
                    if setting in seen:
                        size = "" if level.size is None else f"/{level.size} {level.mode}"
                        duplicates.append(f"{variant}{size}/{profile}/budget {budget}/{ordering}")
                        continue
                    seen.add(setting)
                    for half_life in spec.half_lives:
                        for sel in spec.selectors:
                            key = CellKey(
                                catalog=variant,
                                profile=profile,
                                budget=effective,
                                ordering=ordering,
                                half_life=half_life,
                                selector=sel.label,
                                catalog_size=level.size,
                                distractors=level.mode,
                            )
                            for repeat in range(spec.repeats):
                                cell = Cell(len(cells), key, repeat)
                                cells.append(cell)
                                plans[cell] = plan
    grid = Grid(requests, catalogs, plans, cells, {s.label: s for s in spec.selectors})
    grid.duplicates = duplicates
    uses = {p: PROFILES.get(p).snapshot_use(spec.profile_options.get(p)) for p in spec.profiles}
    known = {p: use for p, use in uses.items() if use is not None}
    grid.agents = agent_facts(spec.selectors, known)
    notes += [note for use in known.values() if (note := use.missing_note())]
    notes += [str(f["note"]) for f in grid.agents.values() if "note" in f]
    grid.notes = list(dict.fromkeys(notes))
    return grid


def agent_facts(
    selectors: Sequence[SelectorSpec], uses: Mapping[str, SnapshotUse]
) -> dict[str, JsonObject]:
    """The shipped agents a run depends on: per profile (``uses``), the agent release its
    listings follow and the snapshot they used; per live agent selector, the installed
    CLI's version and whether the profile was verified against it (a ``note`` when not;
    refused under ``--strict-agents``)."""
    facts: dict[str, JsonObject] = {
        profile: {
            "verified_version": use.version,
            "snapshot": use.snapshot,
            "builtin_skills": use.builtin_skills,
        }
        for profile, use in uses.items()
    }
    for sel in selectors:
        name = sel.params.get("agent")
        if sel.type == "agent" and isinstance(name, str):
            from skillbench.agents import AGENTS, agent_version, find_executable, unverified_note

            spec = AGENTS.get(name)
            version = agent_version(find_executable(spec))
            entry = facts.setdefault(name, {"verified_version": spec.pinned_version})
            entry["cli_version"] = version
            note = unverified_note(name, version)
            if note is not None:
                entry["note"] = note
    return facts


def _levels(
    spec: GridSpec,
    variant: str,
    profile: str,
    catalog: Catalog,
    requests: list[LabelledRequest],
    notes: list[str],
) -> list[SizedCatalog]:
    """The catalogs of ``variant``: itself, or its nested sizes in a catalog-size sweep."""
    sweep = spec.sweep
    if sweep is None:
        return [SizedCatalog(None, None, catalog)]
    base = spec.base_dir

    def embed(texts: Sequence[str]) -> Any:
        embedder = Embedder.shared(DEFAULT_MODEL, default_cache_root(), base_dir=base)
        return embedder.embed(texts)

    sized = plan_sizes(
        catalog,
        variant,
        requests,
        sweep.sizes,
        sweep.modes,
        spec.seed,
        embed,
        listable_indices(
            catalog.skills,
            profile=profile,
            inactive=catalog.inactive,
            options=spec.profile_options.get(profile),
        ),
    )
    notes += sized.notes
    if not sized.catalogs:
        raise InputError(
            sweep.where,
            f"no catalog size of the sweep fits catalog {variant!r}: " + "; ".join(sized.notes),
        )
    return sized.catalogs


class SelectorPool:
    """Selectors built once per run; calibratable ones once per cell (each fits its own)."""

    def __init__(self, selectors: dict[str, SelectorSpec], env: SelectorEnv) -> None:
        self.env = env
        self.selectors = selectors
        self._shared: dict[str, Selector] = {}
        self._per_cell: dict[Cell, Selector] = {}

    def _build(self, name: str) -> Selector:
        """Build a selector; a parameter its factory rejects is reported at its config line."""
        sel = self.selectors[name]
        try:
            return SELECTORS.get(sel.type)(sel.params, self.env)
        except InputError:
            raise
        except SkillbenchError as exc:
            raise InputError(sel.where, str(exc)) from None

    def for_cell(self, cell: Cell) -> Selector:
        if cell in self._per_cell:
            return self._per_cell[cell]
        name = cell.key.selector
        shared = self._shared.get(name)
        if shared is None:
            shared = self._shared[name] = self._build(name)
        if not isinstance(shared, Calibratable):
            return shared
        own = self._per_cell[cell] = self._build(name)
        return own

    def shared(self) -> dict[str, Selector]:
        """One instance per configured selector (for ``--dry-run`` plans)."""
        for name in self.selectors:
            if name not in self._shared:
                self._shared[name] = self._build(name)
        return self._shared
