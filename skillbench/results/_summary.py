"""``summary.json``: one cell per listing setting and selector, its metrics built from the
metric registry so a registered metric is a documented field here without being named twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, cast

from pydantic import BaseModel, Field, create_model, model_validator

from skillbench.cost import CellCost
from skillbench.metrics import (
    METRICS,
    ControlStats,
    PositionStats,
    RepeatStats,
    SkillStats,
    by_position,
    completed,
    confusion,
    counted_rows,
    not_shown,
    per_skill,
)
from skillbench.selectors import Calibration
from skillbench.types import (
    CELL_FIELDS,
    LISTING_MISMATCH,
    OUTCOMES,
    SCHEMA_VERSION,
    UNANSWERED,
    UNWANTED,
    CellKey,
    JsonObject,
    Outcome,
    Record,
    ResultRow,
)

OPTIONAL_SECTIONS = (
    "calibration",
    "cost",
    "repeats",
    "mean_full_listing_tokens",
    "controls",
    "listing_mismatches",
)
"""Cell sections present only when their part of the run took place."""


class CellCalibration(Record):
    """How a calibrated cell was fitted: its split sizes and what each repeat fitted."""

    train: int
    """Decisions of the cell on the train split (outside every rate)."""
    test: int
    """Decisions on the test split (the ones counted)."""
    fitted: list[Calibration]
    """What the selector fitted, per repeat."""


class RecordedMetric(Record):
    """A metric value a summary holds but no metric registered here computes: written while
    a plugin was installed, read where it is not. Kept as recorded, never recomputed."""

    value: float | None
    """The value as written."""
    ci: list[float] | None = None
    """Its 95% interval as written."""


class CellFields(CellKey):
    """A summary cell's key and every field other than its metric values."""

    n: int
    """Decisions counted (test split, every repeat), errors included."""
    errors: int
    """Decisions that got no answer after the selector's retries; outside every rate."""
    unwanted_invocations: int
    """Count of false_trigger + wrong_skill + hallucinated decisions."""
    outcomes: dict[Outcome, int]
    """Decisions per outcome."""
    by_position: dict[str, PositionStats]
    """Accuracy on completed positives by the 0-based position of the expected skill."""
    per_skill: dict[str, SkillStats]
    """Per skill name: requests accepting it, recall, times chosen, precision (each with _ci)."""
    confusion: dict[str, dict[str, int]]
    """Counts of expected → chosen (`none` for no skill, `<error>`/`<malformed>`), over the
    decisions whose expected skill was shown."""
    not_shown: dict[str, int] = Field(default_factory=dict)
    """Per expected skill: decisions whose listing did not show it (outside `confusion`)."""
    mean_listing_chars: float | None
    """Mean listing size in characters."""
    mean_listing_tokens: float | None
    """Mean listing size in tokens."""
    mean_full_listing_tokens: float | None = None
    """Mean tokens of the listing without the retrieve stage (cells with one only)."""
    calibration: CellCalibration | None = None
    """Train/test sizes and fitted values, for calibrated selectors."""
    cost: CellCost | None = None
    """Inline vs fork token and dollar totals of the invoked skills."""
    repeats: RepeatStats | None = None
    """Trigger rates and pass^k, when the config asks for more than one repeat."""
    controls: ControlStats | None = None
    """Positive controls of a model or live cell: requests naming a listed skill explicitly,
    their trigger rate and whether the cell passed (outside every other field)."""
    listing_mismatches: int | None = None
    """Live decisions whose agent sent another listing than the cell rendered (absent when
    no listing was compared)."""
    unknown_metrics: dict[str, RecordedMetric] = Field(default_factory=dict, exclude=True)
    """Metrics in the file that no registered metric computes here (a plugin's, read where
    the plugin is not installed); written back as the flat keys they were read from."""

    def metric(self, name: str) -> float | None:
        """The value of metric ``name``, registered or recorded (None: undefined here)."""
        if name in self.unknown_metrics:
            return self.unknown_metrics[name].value
        return cast(float | None, getattr(self, name))

    def interval(self, name: str) -> list[float] | None:
        """The 95% interval of metric ``name``, registered or recorded."""
        if name in self.unknown_metrics:
            return self.unknown_metrics[name].ci
        return cast(list[float] | None, getattr(self, name + "_ci"))

    def to_json(self) -> JsonObject:
        """The cell as written to ``summary.json`` (absent sections left out)."""
        data = self.model_dump(mode="json")
        for name, recorded in self.unknown_metrics.items():
            data[name], data[name + "_ci"] = recorded.value, recorded.ci
        for section in OPTIONAL_SECTIONS:
            if data[section] is None:
                del data[section]
        for m in METRICS.values():
            if m.optional and data[m.name] is None:
                del data[m.name], data[m.name + "_ci"]
        return data


def _metric_fields() -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for m in METRICS.values():
        # An optional metric may be absent: cells without its stage, runs from before it.
        default = None if m.optional else ...
        fields[m.name] = (float | None, Field(default, description=m.definition))
        fields[m.name + "_ci"] = (
            list[float] | None,
            Field(default, description=f"95% interval of {m.name} ({m.interval})"),
        )
    return fields


def cell_model() -> type[CellFields]:
    """The summary cell model: :class:`CellFields` plus, for each metric registered now (the
    installed plugins' included), its value and its ``_ci`` interval.

    Built on first use, not at import, so a plugin may import this package and register a
    metric before any summary is made; a metric registered later gets a model of its own.
    """
    return _cell_model(tuple(m.name for m in METRICS.values()))


@cache
def _cell_model(names: tuple[str, ...]) -> type[CellFields]:
    return cast(
        type[CellFields],
        create_model(
            "SummaryCell",
            __base__=CellFields,
            __doc__="One cell of ``summary.json``: its key, counts and every registered metric.",
            **_metric_fields(),
        ),
    )


def summary_cell(key: CellKey, rows: Sequence[ResultRow]) -> CellFields:
    """The summary cell of ``key`` over its rows (every repeat).

    ``n`` counts every decision of the cell and ``errors`` those that got no answer; each
    registered metric adds its value and ``_ci`` interval, every rate but ``error_rate`` over
    the completed decisions. A cell a selector calibrated on counts its test split only.
    """
    rows = counted_rows(rows)
    outcomes = Counter(r.outcome for r in rows)
    scored = [r for r in rows if completed(r)]
    values: dict[str, Any] = {}
    for m in METRICS.values():
        values[m.name], values[m.name + "_ci"] = m.compute(rows)
    return cell_model()(
        **{name: getattr(key, name) for name in CELL_FIELDS},
        n=len(rows),
        errors=sum(outcomes[o] for o in UNANSWERED),
        unwanted_invocations=sum(outcomes[o] for o in UNWANTED),
        outcomes={o: outcomes[o] for o in OUTCOMES},
        by_position=by_position([r for r in scored if r.expected]),
        per_skill=per_skill(scored),
        confusion=confusion(rows),
        not_shown=not_shown(rows),
        mean_listing_chars=_mean(r.listing_chars for r in rows),
        mean_listing_tokens=_mean(r.listing_tokens for r in rows),
        mean_full_listing_tokens=_mean(r.full_listing_tokens for r in rows),
        listing_mismatches=_mismatches(rows),
        **values,
    )


def _mismatches(rows: Sequence[ResultRow]) -> int | None:
    """Decisions whose agent listed otherwise (None when no row's listing was compared)."""
    checked = [r for r in rows if LISTING_MISMATCH in r.detail]
    return sum(r.listing_mismatch is not None for r in checked) if checked else None


def _mean(values: Iterable[int | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


class Summary(BaseModel):
    """``summary.json``: the run's name, its config hash and its cells in grid order."""

    model_config = Record.model_config

    schema_version: str = SCHEMA_VERSION
    """Run-directory schema of the file."""
    name: str
    """Run name from the config."""
    config_hash: str
    """Hash of what decides the results (see the manifest)."""
    cells: list[CellFields]
    """Summary cells in grid order."""
    plugin_metrics: dict[str, str] = Field(default_factory=dict)
    """Metric name → the plugin package that registered it, for the metrics plugins
    added (absent when none did): where a plugin is missing, reports name what to install."""

    @model_validator(mode="before")
    @classmethod
    def _metric_cells(cls, data: Any) -> Any:
        """Cells carry the registered metrics, which only the full cell model accepts; a
        metric no registered one computes (a plugin's, the plugin absent) is kept apart."""
        if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
            return data
        model = cell_model()
        cells = [
            c if isinstance(c, CellFields) else model.model_validate(_set_apart(model, c))
            for c in data["cells"]
        ]
        return {**data, "cells": cells}

    def recorded_metrics(self) -> dict[str, str | None]:
        """The metrics the cells hold that no registered metric computes here: name → the
        plugin package that wrote them (None: the run does not say)."""
        names = dict.fromkeys(n for c in self.cells for n in c.unknown_metrics)
        return {n: self.plugin_metrics.get(n) for n in names}

    def recorded_note(self) -> str | None:
        """One sentence on the recorded metrics: which plugin each needs to be recomputed."""
        recorded = self.recorded_metrics()
        if not recorded:
            return None
        named = ", ".join(
            f"{n} (plugin {p})" if p else f"{n} (from a plugin the run does not name)"
            for n, p in recorded.items()
        )
        return (
            f"Metrics from plugins not installed here, kept as recorded and not recomputed: {named}"
        )

    def to_json(self) -> JsonObject:
        """``summary.json`` as written."""
        return {
            "schema_version": self.schema_version,
            "name": self.name,
            "config_hash": self.config_hash,
            "cells": [c.to_json() for c in self.cells],
            **({"plugin_metrics": dict(self.plugin_metrics)} if self.plugin_metrics else {}),
        }


def _set_apart(model: type[CellFields], cell: Any) -> Any:
    """``cell`` with each metric the model does not know (``name`` with or without its
    ``name_ci``) moved under ``unknown_metrics``; other unknown keys stay, to be reported."""
    if not isinstance(cell, dict):
        return cell
    unknown = [k for k in cell if k not in model.model_fields]
    names = {k for k in unknown if not k.endswith("_ci")} | {
        k.removesuffix("_ci") for k in unknown if k.endswith("_ci")
    }
    recorded = {n: {"value": cell.get(n), "ci": cell.get(n + "_ci")} for n in sorted(names)}
    if not recorded:
        return cell
    kept = {k: v for k, v in cell.items() if k not in unknown}
    return {**kept, "unknown_metrics": recorded}


def plugin_metrics() -> dict[str, str]:
    """The metrics registered now that a plugin added: name → the plugin's package."""
    return {
        m.name: m.compute.__module__.split(".")[0]
        for m in METRICS.values()
        if not m.compute.__module__.startswith("skillbench.")
    }
