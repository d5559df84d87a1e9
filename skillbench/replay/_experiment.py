"""The run config resolved once into what the engine's parts need.

``RunConfig`` is the validated file. ``resolve_experiment`` turns it into an ``Experiment``:
paths made absolute, seeds that default to the run's seed settled, error locations taken
from the file, the cost model built. The grid, the selectors, the usage trackers, the
retrieve stages, the annotators and the manifest each take their piece of it and never read
the config file's model again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from skillbench._errors import Location
from skillbench.cache import default_cache_root
from skillbench.catalog import SourceSpec
from skillbench.cost import CostModel
from skillbench.metrics import DEFAULT_CONTROL_THRESHOLD, DEFAULT_CONTROLS
from skillbench.replay._adaptive import AdaptiveRepeats
from skillbench.replay._config import ControlsConfig, RunConfig
from skillbench.selectors import SelectorEnv
from skillbench.types import DistractorMode, JsonObject
from skillbench.usage import UsageTracker

UsageModel = Literal["last_use", "per_event"]


@dataclass(frozen=True)
class RetrieveStage:
    """A selector's retrieve stage: ``method`` ranks the catalog, the listing shows the top
    ``k``; ``where`` is its place in the config, for a param the method rejects."""

    method: str
    k: int
    params: JsonObject
    where: Location


@dataclass(frozen=True)
class SelectorSpec:
    """One configured selector: its name in the grid, its registry type and params."""

    label: str
    type: str
    params: JsonObject
    retrieve: RetrieveStage | None
    where: Location


@dataclass(frozen=True)
class CatalogVariant:
    """A configured catalog: its sources (absolute paths) in precedence order."""

    name: str
    sources: tuple[SourceSpec, ...]
    where: Location


@dataclass(frozen=True)
class Sweep:
    """A catalog-size sweep: the sizes, the distractor modes and the anchor count."""

    sizes: tuple[int | Literal["all"], ...]
    modes: tuple[DistractorMode, ...]
    anchors: int | None
    where: Location


@dataclass(frozen=True)
class RequestSource:
    """Where the requests come from and how they are cut and timed.

    ``timeline_seed`` is settled: the timeline's own seed, else the run's.
    """

    path: Path
    labels: Path | None
    limit: int | None
    timeline_days: int
    timeline_seed: int


@dataclass(frozen=True)
class UsageSpec:
    """How each cell's usage history is kept (``record_label``: the expected skill is
    recorded, not the chosen one). ``written_warm_start`` is the path as the config says it,
    for the manifest."""

    model: UsageModel
    floor: float
    warm_start: Path | None
    written_warm_start: str | None
    record_label: bool

    def trackers(self) -> Callable[[str], UsageTracker]:
        """``make(half_life)``: a fresh tracker per cell, warm-started from the usage file
        (read once per half-life)."""
        loaded: dict[str, UsageTracker] = {}

        def make(half_life: str) -> UsageTracker:
            if half_life not in loaded:
                if self.warm_start is not None:
                    loaded[half_life] = UsageTracker.load(
                        self.warm_start, half_life, self.floor, self.model
                    )
                else:
                    loaded[half_life] = UsageTracker(half_life, self.floor, self.model)
            return loaded[half_life].copy()

        return make

    def settings(self) -> JsonObject:
        """The usage settings as the manifest records them."""
        record = "label" if self.record_label else "chosen"
        return {
            "model": self.model,
            "floor": self.floor,
            "warm_start": self.written_warm_start,
            "record": record,
        }


class CalibrationSpec(NamedTuple):
    """The calibration train split: its share and its settled seed."""

    train_fraction: float
    seed: int


class ExecutorChoice(NamedTuple):
    """The executor a run asked for; ``where`` is the config line when the config chose it."""

    name: str
    where: Location | None = None


@dataclass(frozen=True)
class GridSpec:
    """Everything the grid is built from: inputs and the axes of the cells."""

    requests: RequestSource
    catalogs: tuple[CatalogVariant, ...]
    cwd: Path | None
    profiles: tuple[str, ...]
    profile_options: dict[str, JsonObject]
    budgets: tuple[int | None, ...]
    orderings: tuple[str, ...]
    half_lives: tuple[str, ...]
    selectors: tuple[SelectorSpec, ...]
    repeats: int
    seed: int
    sweep: Sweep | None
    base_dir: Path | None
    """The config's directory (None: a config built in code)."""


class ControlSpec(NamedTuple):
    """Positive controls of model and live cells (the config's ``controls``)."""

    per_cell: int = DEFAULT_CONTROLS
    threshold: float = DEFAULT_CONTROL_THRESHOLD


DEFAULT_CONTROL_SPEC = ControlSpec()


@dataclass(frozen=True)
class Experiment:
    """A run config resolved: each engine part reads its own piece.

    Attributes:
        name: the run's name.
        config_hash: what decides the results (see ``RunConfig.config_hash``).
        grid: inputs and axes of the grid.
        usage: how usage histories are kept.
        calibration: the train split of calibrating selectors.
        token_model: the tokenizer of listing sizes.
        cost: the assumptions of the cost columns.
        output: the default run directory.
        executor: where the replay runs.
        document: the config with absolute input paths, as the run's ``config.yaml``.
        adaptive: how adaptive repeats stop (None: every repeat is asked).
        controls: the positive controls of model and live cells.
        keep_raw_answers: rows keep every model answer whole, not as a bounded excerpt.
    """

    name: str
    config_hash: str
    grid: GridSpec
    usage: UsageSpec
    calibration: CalibrationSpec
    token_model: str
    cost: CostModel
    output: Path
    executor: ExecutorChoice
    document: JsonObject
    adaptive: AdaptiveRepeats | None = None
    controls: ControlSpec = DEFAULT_CONTROL_SPEC
    keep_raw_answers: bool = False

    @property
    def seed(self) -> int:
        return self.grid.seed

    @property
    def selectors(self) -> tuple[SelectorSpec, ...]:
        return self.grid.selectors

    @property
    def limit(self) -> int | None:
        return self.grid.requests.limit

    def selector_env(self, *, max_concurrency: int, quiet: bool) -> SelectorEnv:
        """The environment selectors are built in: the cache root ``skillbench cache``
        manages, the seed and the config's directory."""
        base = self.grid.base_dir or Path.cwd()
        return SelectorEnv(default_cache_root(), self.seed, base, max_concurrency, quiet)


def resolve_experiment(
    config: RunConfig, *, limit: int | None = None, executor: str | None = None
) -> Experiment:
    """Resolve ``config`` for one run: ``limit`` replaces the config's (and enters the
    hash), ``executor`` overrides the config's choice."""
    if limit is not None:
        config = config.model_copy(update={"limit": limit})
    seed = config.seed
    return Experiment(
        name=config.name,
        config_hash=config.config_hash(),
        grid=_grid_spec(config),
        usage=UsageSpec(
            model=config.usage.model,
            floor=config.usage.floor,
            warm_start=config.resolve(config.usage.warm_start) if config.usage.warm_start else None,
            written_warm_start=config.usage.warm_start,
            record_label=config.usage.record == "label",
        ),
        calibration=CalibrationSpec(
            config.calibration.train_fraction,
            seed if config.calibration.seed is None else config.calibration.seed,
        ),
        token_model=config.token_model,
        cost=CostModel(
            **{"model": config.token_model, **config.cost.model_dump(exclude_none=True)}
        ),
        output=config.output_path(),
        executor=_executor_choice(config, executor),
        document=config.resolved(),
        adaptive=(
            AdaptiveRepeats(config.repeats_ci_width) if config.repeats_mode == "adaptive" else None
        ),
        controls=ControlSpec(**(config.controls or ControlsConfig()).model_dump()),
        keep_raw_answers=config.keep_raw_answers,
    )


def _executor_choice(config: RunConfig, override: str | None) -> ExecutorChoice:
    """The argument's executor, else the config's (with its line), else ``local``."""
    if override:
        return ExecutorChoice(override)
    if config.executor:
        return ExecutorChoice(config.executor, config.location("executor"))
    return ExecutorChoice("local")


def _grid_spec(config: RunConfig) -> GridSpec:
    seed = config.seed
    timeline_seed = seed if config.timeline.seed is None else config.timeline.seed
    sweep = None
    if config.catalog_sizes is not None:
        sweep = Sweep(
            tuple(config.catalog_sizes),
            config.distractor_modes,
            config.anchors,
            config.location("catalog_sizes"),
        )
    return GridSpec(
        requests=RequestSource(
            config.resolve(config.requests),
            config.resolve(config.labels) if config.labels else None,
            config.limit,
            config.timeline.days,
            timeline_seed,
        ),
        catalogs=tuple(
            CatalogVariant(
                variant,
                tuple(SourceSpec(str(config.resolve(s.path)), s.source) for s in sources),
                config.location("catalogs", variant),
            )
            for variant, sources in config.catalogs.items()
        ),
        cwd=config.resolve(config.cwd) if config.cwd else None,
        profiles=tuple(config.profiles),
        profile_options={k: dict(v) for k, v in config.profile_options.items()},
        budgets=tuple(config.budgets),
        orderings=tuple(config.orderings),
        half_lives=tuple(config.half_lives),
        selectors=tuple(_selector(config, i) for i in range(len(config.selectors))),
        repeats=config.repeats,
        seed=seed,
        sweep=sweep,
        base_dir=config.path.parent if config.path else None,
    )


def _selector(config: RunConfig, index: int) -> SelectorSpec:
    sel = config.selectors[index]
    stage = None
    if sel.retrieve is not None:
        stage = RetrieveStage(
            sel.retrieve.method,
            sel.retrieve.k,
            sel.retrieve.params,
            config.location("selectors", index, "retrieve"),
        )
    return SelectorSpec(sel.label, sel.type, sel.params, stage, config.location("selectors", index))
