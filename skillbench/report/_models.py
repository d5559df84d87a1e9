"""The report's model section: what each model cell's calls took (calls, tokens, time, dollars).

Read from the rows' ``detail`` as the litellm selector records it (``model``, ``cached``,
``attempts``, ``usage``, ``cost_usd``) and their ``latency_ms``, the call's own time. Latency
percentiles are over the decisions that went to the server: a cached answer took no call.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from skillbench.report._doc import Block, Heading, Para, Table
from skillbench.report._run import cell_label, varying_keys
from skillbench.results import ResultRow, Run, group_by_cell
from skillbench.types import CELL_FIELDS, CellKey


class ModelFigures(NamedTuple):
    """One model cell's calls: decisions, calls sent, cache hits, tokens, latency, dollars."""

    model: str
    decisions: int
    calls: int
    cached: int
    errors: int
    prompt_tokens: int
    completion_tokens: int
    latency_p50_ms: float | None
    latency_p95_ms: float | None
    cost_usd: float | None


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile (0–1) by the nearest-rank method; ``None`` without values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def model_figures(rows: Sequence[ResultRow]) -> dict[CellKey, ModelFigures]:
    """Per cell whose rows came from a model: its figures (other cells are left out)."""
    by_cell = group_by_cell(r for r in rows if isinstance(r.detail.get("model"), str))
    return {key: _figures(cell_rows) for key, cell_rows in by_cell.items()}


def _figures(rows: Sequence[ResultRow]) -> ModelFigures:
    details = [r.detail for r in rows]
    sent = [r for r, d in zip(rows, details, strict=True) if not d.get("cached")]
    usages = [d.get("usage") or {} for d in details if not d.get("cached")]
    costs = [d["cost_usd"] for d in details if isinstance(d.get("cost_usd"), int | float)]
    latencies = [r.latency_ms for r in sent if r.detail.get("attempts") and r.latency_ms]
    return ModelFigures(
        model=str(details[0]["model"]),
        decisions=len(rows),
        calls=sum(int(d.get("attempts") or 0) for d in details if not d.get("cached")),
        cached=sum(bool(d.get("cached")) for d in details),
        errors=sum(r.outcome == "error" for r in rows),
        prompt_tokens=sum(int(u.get("prompt_tokens") or 0) for u in usages),
        completion_tokens=sum(int(u.get("completion_tokens") or 0) for u in usages),
        latency_p50_ms=percentile(latencies, 0.5),
        latency_p95_ms=percentile(latencies, 0.95),
        cost_usd=sum(costs) if costs else None,
    )


def _key_order(key: CellKey) -> tuple[str, ...]:
    """Cells in the order of their key fields' values as Python writes them."""
    return tuple(repr(getattr(key, name)) for name in CELL_FIELDS)


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def model_section(run: Run) -> list[Block]:
    """A table of every model cell's figures; nothing when no cell asked a model."""
    figures = model_figures(run.rows)
    if not figures:
        return []
    keys = varying_keys(run.summary.cells)
    rows = []
    for key, f in sorted(figures.items(), key=lambda item: _key_order(item[0])):
        cost = "–" if f.cost_usd is None else f"${f.cost_usd:,.4f}"
        rows.append(
            [
                cell_label(key, keys),
                f.model,
                f"{f.decisions:,}",
                f"{f.calls:,}",
                f"{f.cached:,}",
                f"{f.errors:,}",
                f"{f.prompt_tokens:,}",
                f"{f.completion_tokens:,}",
                _ms(f.latency_p50_ms),
                _ms(f.latency_p95_ms),
                cost,
            ]
        )
    note = (
        "Per model cell: calls sent (retries included; cached answers sent none), the tokens "
        "and dollars the provider reported for them, and each call's own latency (queueing "
        "and waits between retries excluded; nearest-rank percentiles)."
    )
    header = [
        "cell",
        "model",
        "decisions",
        "calls",
        "cached",
        "errors",
        "prompt tokens",
        "completion tokens",
        "latency p50 ms",
        "latency p95 ms",
        "cost",
    ]
    table = Table(header, rows, numeric=frozenset(range(2, len(header))))
    return [Heading("Model calls", 3), Para(note, muted=True), table]
