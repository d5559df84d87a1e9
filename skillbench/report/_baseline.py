"""The baseline file ``bless`` writes and ``check`` reads (format documented in docs/ci.md)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from skillbench._errors import InputError, Location, SkillbenchError, validated
from skillbench.metrics import METRICS, metric_key
from skillbench.report._run import has_metric, rows_by_cell, run_name
from skillbench.results import ResultRow, Run
from skillbench.types import CELL_FIELDS, CellKey, JsonObject, Outcome, Record, cell_fields

FORMAT_VERSION: Literal[1] = 1
Bounds = Mapping[str, Mapping[str, float]]
"""Absolute thresholds per metric, ``min`` and/or ``max``: ``{"accuracy": {"min": 0.8}}``."""


def merge_bounds(
    base: Bounds, minimum: Mapping[str, float], maximum: Mapping[str, float]
) -> dict[str, dict[str, float]]:
    """``base`` with the given floors and ceilings on top (a later value wins per metric)."""
    out: dict[str, dict[str, float]] = {name: dict(b) for name, b in base.items()}
    for key, given in (("min", minimum), ("max", maximum)):
        for name, value in given.items():
            out.setdefault(name, {})[key] = value
    return out


class MetricValue(Record):
    """A metric of a blessed cell."""

    value: float | None
    """The metric's value (null: undefined for the cell)."""
    ci: list[float] | None
    """Its 95% interval."""
    n: int | None
    """Decisions it is over (null: no single denominator)."""


class RequestOutcomes(Record):
    """One request of a blessed cell: the facts every per-decision metric reads, per repeat."""

    positive: bool
    """The request expects a skill."""
    outcomes: list[Outcome]
    """Each repeat's outcome."""
    visible: list[bool | None]
    """Each repeat's visibility of an expected skill (null for negatives)."""


class BaselineCell(CellKey):
    """One cell of a baseline: its key, metric values and per-request outcomes."""

    metrics: dict[str, MetricValue]
    """Per registered metric the cell had when blessed."""
    requests: dict[str, RequestOutcomes]
    """Per request id, in the run's order."""


class Baseline(Record):
    """A baseline file: the blessed run's cells and the absolute thresholds it records."""

    skillbench_baseline: Literal[1] = FORMAT_VERSION
    """Format version of the file."""
    run: str
    """Name of the blessed run."""
    config_hash: str | None
    """Config hash of the blessed run."""
    created: str
    """When it was blessed (UTC, ISO 8601)."""
    thresholds: dict[str, dict[str, float]] | None = None
    """Absolute floors (``min``) and ceilings (``max``) per metric that every check enforces."""
    cells: list[BaselineCell]
    """The blessed run's cells in grid order."""

    def to_json(self) -> JsonObject:
        """The file's document (thresholds only when recorded; the key fields the blessed
        run used, so a run without a size axis has no size keys)."""
        fields = cell_fields(self.cells)
        doc: JsonObject = {
            "skillbench_baseline": self.skillbench_baseline,
            "run": self.run,
            "config_hash": self.config_hash,
            "created": self.created,
        }
        if self.thresholds:
            doc["thresholds"] = {name: dict(b) for name, b in self.thresholds.items()}
        doc["cells"] = [
            {
                **{k: getattr(cell, k) for k in fields},
                "metrics": {
                    name: entry.model_dump(mode="json") for name, entry in cell.metrics.items()
                },
                "requests": {
                    rid: entry.model_dump(mode="json") for rid, entry in cell.requests.items()
                },
            }
            for cell in self.cells
        ]
        return doc


def _requests(rows: Sequence[ResultRow]) -> dict[str, RequestOutcomes]:
    """Per request the facts every per-decision metric reads: outcomes, positive, visibility."""
    positive: dict[str, bool] = {}
    outcomes: dict[str, list[Outcome]] = {}
    visible: dict[str, list[bool | None]] = {}
    for r in rows:
        positive.setdefault(r.request_id, bool(r.expected))
        outcomes.setdefault(r.request_id, []).append(r.outcome)
        visible.setdefault(r.request_id, []).append(r.visible)
    return {
        rid: RequestOutcomes(positive=positive[rid], outcomes=outcomes[rid], visible=visible[rid])
        for rid in positive
    }


def request_rows(cell: BaselineCell) -> list[ResultRow]:
    """A baseline cell's requests back as decision rows (one per repeat) for the metrics.

    A baseline keeps only what per-decision metrics read (outcome, visibility, whether a skill
    was expected, under a placeholder name), so the rows are built without the fields it
    does not record; reading one of those is an error.
    """
    key = {name: getattr(cell, name) for name in CELL_FIELDS}
    rows = []
    for rid, entry in cell.requests.items():
        expected = ["?"] if entry.positive else []
        for repeat, (outcome, visible) in enumerate(
            zip(entry.outcomes, entry.visible, strict=True)
        ):
            rows.append(
                ResultRow.model_construct(
                    **key,
                    repeat=repeat,
                    request_id=rid,
                    expected=expected,
                    outcome=outcome,
                    visible=visible,
                )
            )
    return rows


def baseline_from_run(run: Run, bounds: Bounds | None = None) -> Baseline:
    """The baseline of a run: metric values, intervals, denominators, per-request outcomes and
    (optionally) absolute thresholds."""
    by_cell = rows_by_cell(run.rows)
    cells = []
    for cell in run.summary.cells:
        rows = by_cell.get(cell.key, [])
        metrics = {}
        for m in METRICS.values():
            if has_metric(cell, m.name):
                size = m.size(rows) if rows else None
                n = cell.n if size is None else size
                metrics[m.name] = MetricValue(
                    value=cell.metric(m.name), ci=cell.interval(m.name), n=n
                )
        key = {name: getattr(cell, name) for name in CELL_FIELDS}
        cells.append(BaselineCell(**key, metrics=metrics, requests=_requests(rows)))
    return Baseline(
        run=run_name(run),
        config_hash=run.summary.config_hash,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        thresholds={name: dict(b) for name, b in bounds.items()} if bounds else None,
        cells=cells,
    )


def write_baseline(baseline: Baseline, path: str | Path) -> Path:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(baseline.to_json(), indent=1) + "\n", encoding="utf-8")
    return out


def check_bounds(bounds: Mapping[str, Any], where: str) -> dict[str, dict[str, float]]:
    """Every threshold names a known metric, says min or max, and is a finite number; the
    thresholds keyed by ``metric_key`` (a later one wins where two names are one metric)."""
    out: dict[str, dict[str, float]] = {}
    for name, bound in bounds.items():
        try:
            metric = metric_key(name)
        except SkillbenchError as exc:
            raise SkillbenchError(f"{where}: {exc}") from None
        if not isinstance(bound, Mapping) or not bound:
            raise SkillbenchError(f'{where}: {name}: expected {{"min": x}} and/or {{"max": x}}')
        for key, value in bound.items():
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            if key not in ("min", "max") or not ok or not math.isfinite(value):
                raise SkillbenchError(
                    f"{where}: {name}.{key}: expected min or max with a finite number, "
                    f"got {value!r}"
                )
        out.setdefault(metric, {}).update(bound)
    return out


def load_baseline(path: str | Path) -> Baseline:
    """Read and validate a baseline file; errors name the file and the field."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SkillbenchError(
            f"{p}: baseline not found (create it with `skillbench bless`)"
        ) from None
    except (UnicodeDecodeError, IsADirectoryError) as exc:
        raise InputError(Location(str(p)), f"not a baseline file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(Location(str(p), exc.lineno), f"invalid JSON: {exc.msg}") from None
    if not isinstance(doc, dict) or doc.get("skillbench_baseline") != FORMAT_VERSION:
        raise InputError(
            Location(str(p), field="skillbench_baseline"),
            f"not a skillbench baseline (version {FORMAT_VERSION} expected)",
        )
    if not isinstance(doc.get("cells"), list):
        raise InputError(Location(str(p), field="cells"), "missing cell list")
    bounds = doc.get("thresholds", {})
    if not isinstance(bounds, dict):
        raise InputError(Location(str(p), field="thresholds"), "expected an object per metric")
    check_bounds(bounds, f"{p}: field 'thresholds'")
    return validated(Baseline, doc, str(p))
