"""Everything a run prepares before replaying: requests, catalogs, plans, cells, selectors,
usage trackers.

Work shared between cells is done here once: one catalog load per (variant, profile), one
``ListingPlan`` per (variant, profile, budget, ordering), one selector per config entry
(selectors fitted per cell, ``threshold: auto``, get one instance per cell instead).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skillbench._errors import InputError, SkillbenchError
from skillbench.cache import default_cache_root
from skillbench.catalog import Catalog, SourceSpec, load_catalog
from skillbench.dataset import (
    LabelledRequest,
    apply_labels,
    assign_timeline,
    check_expected,
    load_labels,
    load_requests,
)
from skillbench.listing import PROFILES, ListingPlan, SnapshotUse, listable_indices
from skillbench.replay._config import RunConfig, SelectorConfig
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
from skillbench.usage import UsageTracker


def selector_env(config: RunConfig, *, max_concurrency: int, quiet: bool) -> SelectorEnv:
    """The environment selectors are built in: the cache root ``skillbench cache`` manages,
    the seed and the config's directory."""
    base = config.path.parent if config.path else Path.cwd()
    return SelectorEnv(default_cache_root(), config.seed, base, max_concurrency, quiet)


def usage_trackers(config: RunConfig) -> Callable[[str], UsageTracker]:
    """``make(half_life)``: a fresh tracker per cell, warm-started from the usage file
    (read once per half-life)."""
    usage = config.usage
    loaded: dict[str, UsageTracker] = {}

    def make(half_life: str) -> UsageTracker:
        if half_life not in loaded:
            if usage.warm_start:
                path = config.resolve(usage.warm_start)
                loaded[half_life] = UsageTracker.load(path, half_life, usage.floor, usage.model)
            else:
                loaded[half_life] = UsageTracker(half_life, usage.floor, usage.model)
        return loaded[half_life].copy()

    return make


def replay_order(request: LabelledRequest) -> tuple[Any, ...]:
    """Requests replay by time, then session, turn and id (a total, stable order)."""
    return (request.at, request.session or "", request.turn or 0, request.id)


def prepare_requests(config: RunConfig, limit: int | None) -> list[LabelledRequest]:
    """The requests in replay order: the first ``limit`` of the file, timeline filled in."""
    requests = load_requests(config.resolve(config.requests))
    if config.labels:
        labels = config.resolve(config.labels)
        requests = apply_labels(requests, load_labels(labels), labels)
    if limit is not None:
        requests = requests[:limit]
    if any(r.at is None for r in requests):
        seed = config.seed if config.timeline.seed is None else config.timeline.seed
        requests = assign_timeline(requests, seed=seed, days=config.timeline.days)
    return sorted(requests, key=replay_order)


def train_split(requests: Sequence[LabelledRequest], config: RunConfig) -> frozenset[str]:
    """Ids of the calibration train split: a seeded share of positives and of negatives."""
    seed = config.seed if config.calibration.seed is None else config.calibration.seed
    rng = random.Random(f"skillbench-split-{seed}")
    train: set[str] = set()
    for positive in (True, False):
        ids = sorted(r.id for r in requests if r.positive is positive)
        rng.shuffle(ids)
        train.update(ids[: round(len(ids) * config.calibration.train_fraction)])
    return frozenset(train)


@dataclass
class Grid:
    """The prepared run: cells in canonical order and what they share."""

    requests: list[LabelledRequest]
    catalogs: dict[tuple[str, str], Catalog]
    plans: dict[Cell, ListingPlan]
    cells: list[Cell]
    selector_configs: dict[str, SelectorConfig]
    train: frozenset[str] = frozenset()
    duplicates: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    agents: dict[str, dict[str, Any]] = field(default_factory=dict)
    """What a catalog-size sweep drew or skipped (anchor sample, unusable sizes)."""

    @property
    def decisions(self) -> int:
        return len(self.cells) * len(self.requests)


def load_variant(config: RunConfig, variant: str, profile: str) -> Catalog:
    """The catalog of config variant ``variant`` under ``profile``'s precedence rules."""
    specs = [SourceSpec(str(config.resolve(s.path)), s.source) for s in config.catalogs[variant]]
    cwd = config.resolve(config.cwd) if config.cwd else None
    return load_catalog(specs, profile=profile, cwd=cwd)


def build_grid(config: RunConfig, *, limit: int | None = None) -> Grid:
    """Load requests and catalogs, build the plans and enumerate the cells."""
    requests = prepare_requests(config, limit if limit is not None else config.limit)
    notes: list[str] = []
    if config.catalog_sizes is not None:
        requests, notes = anchor_requests(requests, config.anchors, config.seed)
    catalogs: dict[tuple[str, str], Catalog] = {}
    for variant in config.catalogs:
        for profile in config.profiles:
            catalog = load_variant(config, variant, profile)
            if not catalog.skills:
                raise InputError(
                    config.location("catalogs", variant),
                    f"catalog {variant!r} holds no skills (profile {profile})",
                )
            check_expected(requests, catalog, label=variant)
            catalogs[variant, profile] = catalog
    plans: dict[Cell, ListingPlan] = {}
    cells: list[Cell] = []
    seen: set[tuple[Any, ...]] = set()
    duplicates: list[str] = []
    for (variant, profile), full in catalogs.items():
        for level in _levels(config, variant, profile, full, requests, notes):
            for budget in config.budgets:
                for ordering in config.orderings:
                    plan = ListingPlan(
                        level.catalog.skills,
                        profile=profile,
                        budget=budget,
                        ordering=ordering,
                        inactive=full.inactive,
                        seed=config.seed,
                        options=config.profile_options.get(profile),
                    )
                    effective = plan.budget
                    setting = (variant, profile, level.size, level.mode, effective, ordering)
                    if setting in seen:
                        size = "" if level.size is None else f"/{level.size} {level.mode}"
                        duplicates.append(f"{variant}{size}/{profile}/budget {budget}/{ordering}")
                        continue
                    seen.add(setting)
                    for half_life in config.half_lives:
                        for sel in config.selectors:
                            for repeat in range(config.repeats):
                                cell = Cell(
                                    len(cells),
                                    variant,
                                    profile,
                                    effective,
                                    ordering,
                                    half_life,
                                    sel.label,
                                    repeat,
                                    level.size,
                                    level.mode,
                                )
                                cells.append(cell)
                                plans[cell] = plan
    grid = Grid(requests, catalogs, plans, cells, {s.label: s for s in config.selectors})
    grid.duplicates = duplicates
    uses = [PROFILES.get(p).snapshot_use(config.profile_options.get(p)) for p in config.profiles]
    grid.agents = agent_facts(config, [use for use in uses if use is not None])
    notes += [note for use in uses if use and (note := use.missing_note())]
    grid.notes = list(dict.fromkeys(notes))
    return grid


def agent_facts(config: RunConfig, uses: Sequence[SnapshotUse]) -> dict[str, dict[str, Any]]:
    """The shipped agents a run depends on: each verified profile's agent version and the
    snapshot its listings used (``uses``), and the CLI version of each live agent selector."""
    facts: dict[str, dict[str, Any]] = {
        use.agent: {
            "verified_version": use.version,
            "snapshot": use.snapshot,
            "builtin_skills": use.builtin_skills,
        }
        for use in uses
    }
    for sel in config.selectors:
        if sel.type == "agent" and isinstance(sel.params.get("agent"), str):
            from skillbench.agents import AGENTS, agent_version, find_executable

            name = sel.params["agent"]
            spec = AGENTS.get(name)
            entry = facts.setdefault(name, {"verified_version": spec.verified_version})
            entry["cli_version"] = agent_version(find_executable(spec))
    return facts


def _levels(
    config: RunConfig,
    variant: str,
    profile: str,
    catalog: Catalog,
    requests: list[LabelledRequest],
    notes: list[str],
) -> list[SizedCatalog]:
    """The catalogs of ``variant``: itself, or its nested sizes in a catalog-size sweep."""
    if config.catalog_sizes is None:
        return [SizedCatalog(None, None, catalog)]
    base = config.path.parent if config.path else None

    def embed(texts: Sequence[str]) -> Any:
        embedder = Embedder.shared(DEFAULT_MODEL, default_cache_root(), base_dir=base)
        return embedder.embed(texts)

    sweep = plan_sizes(
        catalog,
        variant,
        requests,
        config.catalog_sizes,
        config.distractor_modes,
        config.seed,
        embed,
        listable_indices(
            catalog.skills,
            profile=profile,
            inactive=catalog.inactive,
            options=config.profile_options.get(profile),
        ),
    )
    notes += sweep.notes
    if not sweep.catalogs:
        raise InputError(
            config.location("catalog_sizes"),
            f"no catalog size of the sweep fits catalog {variant!r}: " + "; ".join(sweep.notes),
        )
    return sweep.catalogs


class SelectorPool:
    """Selectors built once per run; calibratable ones once per cell (each fits its own)."""

    def __init__(
        self, configs: dict[str, SelectorConfig], env: SelectorEnv, config: RunConfig
    ) -> None:
        self.env = env
        self.configs = configs
        self._index = {sel.label: i for i, sel in enumerate(config.selectors)}
        self._config = config
        self._shared: dict[str, Selector] = {}
        self._per_cell: dict[Cell, Selector] = {}

    def _build(self, name: str) -> Selector:
        """Build a selector; a parameter its factory rejects is reported at its config line."""
        sel = self.configs[name]
        try:
            return SELECTORS.get(sel.type)(sel.params, self.env)
        except InputError:
            raise
        except SkillbenchError as exc:
            where = self._config.location("selectors", self._index[name])
            raise InputError(where, str(exc)) from None

    def for_cell(self, cell: Cell) -> Selector:
        if cell in self._per_cell:
            return self._per_cell[cell]
        shared = self._shared.get(cell.selector)
        if shared is None:
            shared = self._shared[cell.selector] = self._build(cell.selector)
        if not isinstance(shared, Calibratable):
            return shared
        own = self._per_cell[cell] = self._build(cell.selector)
        return own

    def shared(self) -> dict[str, Selector]:
        """One instance per configured selector (for ``--dry-run`` plans)."""
        for name in self.configs:
            if name not in self._shared:
                self._shared[name] = self._build(name)
        return self._shared
