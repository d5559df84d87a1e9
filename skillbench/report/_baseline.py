"""The baseline file ``bless`` writes and ``check`` reads (format documented in docs/ci.md)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench.metrics import METRICS, find_metric
from skillbench.report._pairing import cell_rows
from skillbench.report._run import Row, Run, cell_key
from skillbench.types import cell_fields

FORMAT_VERSION = 1
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


def _requests(rows: Sequence[Row]) -> dict[str, dict[str, Any]]:
    """Per request the facts every per-decision metric reads: outcomes, positive, visibility."""
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        entry = out.setdefault(
            str(r.get("request_id")),
            {"positive": bool(r.get("expected")), "outcomes": [], "visible": []},
        )
        entry["outcomes"].append(r.get("outcome"))
        entry["visible"].append(r.get("visible"))
    return out


def request_rows(cell: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A baseline cell's requests back as decision rows (one per repeat) for the metrics."""
    rows = []
    for rid, entry in (cell.get("requests") or {}).items():
        expected = ["?"] if entry.get("positive") else []
        for outcome, visible in zip(entry["outcomes"], entry["visible"], strict=True):
            rows.append(
                {"request_id": rid, "outcome": outcome, "expected": expected, "visible": visible}
            )
    return rows


def baseline_from_run(run: Run, bounds: Bounds | None = None) -> dict[str, Any]:
    """The baseline document: metric values, intervals, denominators, per-request outcomes and
    (optionally) absolute thresholds."""
    by_cell = cell_rows(run, counted=True)
    cells = []
    for cell in run.cells:
        rows = by_cell.get(cell_key(cell), [])
        metrics = {}
        for m in METRICS.values():
            if m.name in cell:
                size = m.size(rows) if rows else None
                n = cell.get("n") if size is None else size
                metrics[m.name] = {"value": cell[m.name], "ci": cell.get(m.name + "_ci"), "n": n}
        entry = {k: cell.get(k) for k in cell_fields(run.cells)}
        entry.update(metrics=metrics, requests=_requests(rows))
        cells.append(entry)
    doc: dict[str, Any] = {
        "skillbench_baseline": FORMAT_VERSION,
        "run": run.name,
        "config_hash": run.summary.get("config_hash"),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    if bounds:
        doc["thresholds"] = {name: dict(b) for name, b in bounds.items()}
    doc["cells"] = cells
    return doc


def write_baseline(doc: Mapping[str, Any], path: str | Path) -> Path:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return out


def check_bounds(bounds: Bounds, where: str) -> None:
    """Every threshold names a known metric, says min or max, and is a finite number."""
    for name, bound in bounds.items():
        try:
            find_metric(name)
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


def load_baseline(path: str | Path) -> dict[str, Any]:
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
    return doc
