"""Replay experiments: the run config, the grid, the lockstep engine and the run directory."""

from skillbench.replay import _cost, _repeats  # noqa: F401  (register the annotators)
from skillbench.replay._adaptive import AdaptiveRepeats
from skillbench.replay._annotators import ANNOTATORS, Annotator, AnnotatorFactory
from skillbench.replay._cell_plan import CellEstimate
from skillbench.replay._config import (
    CalibrationConfig,
    CostConfig,
    RetrieveConfig,
    RunConfig,
    SelectorConfig,
    SourceConfig,
    TimelineConfig,
    UsageConfig,
    load_config,
)
from skillbench.replay._cost import CostAnnotator, cost_annotator
from skillbench.replay._engine import RunResult, run_experiment
from skillbench.replay._executor import EXECUTORS, Executor, ReplayJob
from skillbench.replay._experiment import (
    CalibrationSpec,
    CatalogVariant,
    ExecutorChoice,
    Experiment,
    GridSpec,
    RequestSource,
    RetrieveStage,
    SelectorSpec,
    Sweep,
    UsageSpec,
    resolve_experiment,
)
from skillbench.replay._grid import Grid, build_grid, load_variant, replay_order, train_split
from skillbench.replay._plan import DryRun, GridAxes, SelectorPlan, dry_run
from skillbench.replay._prepare import run_folder
from skillbench.replay._relabel import Relabelled, relabel_run
from skillbench.replay._retrieve import RetrieveStages
from skillbench.replay._schema import config_schema
from skillbench.replay._sizes import (
    SizedCatalog,
    SweepPlan,
    anchor_requests,
    distractor_order,
    plan_sizes,
)
from skillbench.replay._timeline import (
    Shown,
    TimelineStep,
    listing_at,
    recorded_use,
    replayed_listings,
)
from skillbench.replay._types import Cell, Plannable, RunObserver
from skillbench.results import RunStatus
from skillbench.types import CELL_FIELDS, RunStopped

__all__ = [
    "ANNOTATORS",
    "CELL_FIELDS",
    "EXECUTORS",
    "AdaptiveRepeats",
    "Annotator",
    "AnnotatorFactory",
    "CalibrationConfig",
    "CalibrationSpec",
    "CatalogVariant",
    "Cell",
    "CellEstimate",
    "CostAnnotator",
    "CostConfig",
    "DryRun",
    "Executor",
    "ExecutorChoice",
    "Experiment",
    "Grid",
    "GridAxes",
    "GridSpec",
    "Plannable",
    "Relabelled",
    "ReplayJob",
    "RequestSource",
    "RetrieveConfig",
    "RetrieveStage",
    "RetrieveStages",
    "RunConfig",
    "RunObserver",
    "RunResult",
    "RunStatus",
    "RunStopped",
    "SelectorConfig",
    "SelectorPlan",
    "SelectorSpec",
    "Shown",
    "SizedCatalog",
    "SourceConfig",
    "Sweep",
    "SweepPlan",
    "TimelineConfig",
    "TimelineStep",
    "UsageConfig",
    "UsageSpec",
    "anchor_requests",
    "build_grid",
    "config_schema",
    "cost_annotator",
    "distractor_order",
    "dry_run",
    "listing_at",
    "load_config",
    "load_variant",
    "plan_sizes",
    "recorded_use",
    "relabel_run",
    "replay_order",
    "replayed_listings",
    "resolve_experiment",
    "run_experiment",
    "run_folder",
    "train_split",
]
