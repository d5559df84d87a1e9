"""``manifest.json``: how a run was made and how it ended."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from skillbench.selectors import Calibration
from skillbench.types import SCHEMA_VERSION, DistractorMode, JsonObject, Record

RunStatus = Literal["running", "complete", "incomplete", "stopped", "interrupted", "failed"]
"""How a run ended: ``complete`` (every decision answered), ``incomplete`` (some decisions got
no answer; ``--resume`` retries them), ``stopped`` (a selector ended it, e.g. a spend cap),
``interrupted`` (Ctrl-C or a kill), ``failed`` (an error made going on pointless).
``running`` while it goes, or when the process died without a word."""

CLEAN: frozenset[str] = frozenset({"complete"})
"""Statuses whose results are whole; reports flag every other status."""


class CatalogFacts(Record):
    """What reports quote of one catalog variant (under the run's first profile)."""

    skills: dict[str, str]
    """Skill name → description."""
    count: int
    """Skills in the catalog."""
    active: int
    """Skills the agent would list."""
    disabled: int
    """Skills turned off by configuration."""
    inactive: int
    """Skills whose `paths` do not match the working directory."""
    status: dict[str, str]
    """Skill name → status, for skills that are not active."""
    overridden: dict[str, str] = Field(default_factory=dict)
    """Name of a skill the loader set aside for another (one no winner carries) → why."""


class Timeline(Record):
    """The synthetic timeline requests without a time are placed on."""

    days: int
    """Days the timeline spans."""
    seed: int
    """Seed of the placement."""


class RunCalibration(Record):
    """The train split of calibrated selectors and what each cell fitted."""

    train_fraction: float
    """Share of requests in the train split."""
    seed: int
    """Seed of the split."""
    train: int
    """Requests in the train split."""
    test: int
    """Requests in the test split."""
    fitted: dict[str, Calibration]
    """Cell label (repeat included) → what its selector fitted."""


class SizeSweep(Record):
    """What a catalog-size sweep ran."""

    sizes: list[int]
    """Catalog sizes run."""
    distractors: list[DistractorMode]
    """How catalogs were filled beyond their anchors."""
    anchors: list[str]
    """Skills some request expects: in every catalog."""
    notes: list[str]
    """What was drawn or skipped."""


class RunState(Record):
    """Which run a manifest is of, when and with what it was made, and how it ended."""

    schema_version: str = SCHEMA_VERSION
    """Run-directory schema of the file."""
    name: str
    """Run name from the config."""
    config_hash: str
    """Hash of what decides the results (config minus output and pacing settings, plus the
    requests file); `--resume` continues only a run with the same hash."""
    seed: int
    """The run's seed."""
    status: RunStatus
    """How the run ended."""
    stop_reason: str | None = None
    """Why a run is not complete (spend cap, signal, the first error message)."""
    errors: int = 0
    """Decisions that got no answer after the selector's retries."""
    started_at: str
    """Start time (UTC, ISO 8601)."""
    ended_at: str | None = None
    """End time (null while running)."""
    versions: dict[str, str | None]
    """Installed versions of skillbench, python and key libraries."""


class RunShape(Record):
    """What a run covers, fixed by its config and inputs when it starts: sizes, settings,
    catalogs and the optional sections of the parts that took place."""

    requests: int
    """Requests replayed."""
    cells: int
    """Grid cells (repeats counted)."""
    decisions: int
    """Decisions the grid asks for (cells × requests)."""
    resumed_rows: int
    """Decisions kept from an earlier run by `--resume`."""
    limit: int | None = None
    """`--limit` or the config's `limit`."""
    token_model: str
    """Tokenizer used for listing sizes."""
    usage: JsonObject
    """The config's usage section."""
    timeline: Timeline
    """Synthetic timeline settings."""
    catalogs: dict[str, CatalogFacts]
    """Per catalog variant: descriptions and status counts."""
    inputs: dict[str, str] | None = None
    """Digests of the inputs `config_hash` leaves out: each catalog variant as loaded
    (`catalogs.<variant>`: every skill's fields and body, under every profile, and which are
    inactive) and the `usage.warm_start` file; `--resume` refuses a run whose inputs changed."""
    agents: dict[str, JsonObject] | None = None
    """Per agent profile of the run (`my-agent`, `my-agent@1.2.0`) and per live `agent` selector's
    agent: the agent release its listings follow (`verified_version`), the agent snapshot
    they used (`snapshot`: where it came from, or null when none was found and the agent's
    built-in skills are missing), `builtin_skills`; for a live selector `cli_version` and,
    when that release was not verified, a `note`."""
    duplicate_listings_skipped: list[str] | None = None
    """Budget settings that rendered the same listing as another and were skipped."""
    calibration: RunCalibration | None = None
    """Train split and fitted values of calibrated selectors."""
    catalog_sizes: SizeSweep | None = None
    """A catalog-size sweep: the sizes run, distractor modes, anchor skills and notes."""


class Manifest(RunShape, RunState):
    """``manifest.json``: the run's identity, inputs, sizes and end state."""

    def to_json(self) -> JsonObject:
        """The manifest as written (optional sections left out when absent)."""
        data = self.model_dump(mode="json")
        for key in OPTIONAL_MANIFEST_SECTIONS:
            if data.get(key) is None:
                data.pop(key, None)
        return data


OPTIONAL_MANIFEST_SECTIONS = (
    "agents",
    "duplicate_listings_skipped",
    "calibration",
    "catalog_sizes",
)
"""Manifest sections present only when their part of the run took place."""
