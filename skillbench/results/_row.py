"""One results row: a decision, the listing it was made on and what it cost."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, NamedTuple

from pydantic import Field

from skillbench.types import CellKey, JsonObject, Outcome

SCHEMA_VERSION = "0.2"
"""The run-directory schema this version of skillbench writes."""

KNOWN_VERSIONS = ("0.1", "0.2")
"""Schemas this version reads; 0.1 files carry no ``schema_version`` at all."""


class RowKey(NamedTuple):
    """What identifies a decision: its cell, its repeat and its request."""

    cell: CellKey
    repeat: int
    request_id: str


class ResultRow(CellKey):
    """One line of ``results.jsonl``: one decision of one cell (its key fields) on one request."""

    schema_version: str = SCHEMA_VERSION
    """Run-directory schema of the row."""
    repeat: int
    """0-based repeat index."""
    request_id: str
    """Request id from the requests file."""
    text: str | None = None
    """The request text the selector saw (null in schema 0.1 runs)."""
    expected: list[str]
    """Acceptable skill names; empty when nothing should trigger."""
    chosen: str | None = None
    """Skill name the selector invoked (null: abstained or no usable answer)."""
    outcome: Outcome
    """How the decision went against the label (see `skillbench.types.classify`)."""
    visible: bool | None = None
    """Whether an expected skill was shown (null for negatives)."""
    gold_position: int | None = None
    """0-based listing position of the first shown expected skill."""
    listing_chars: int
    """Characters of the listing the selector saw."""
    listing_tokens: int | None
    """Tokens of that listing (the run's token model)."""
    shown: int
    """Entries the listing showed (two skills of one name, both listed, count twice)."""
    latency_ms: float
    """Selector time for this decision in milliseconds: a model call's own time (queueing,
    pre-flight and waits between retries excluded), else the decision's share of its batch."""
    at: str | None = None
    """Request time (ISO 8601), from the request or the synthetic timeline."""
    session: str | None = None
    """Session id copied from the request."""
    turn: int | None = None
    """Turn within the session copied from the request."""
    tags: list[str] = Field(default_factory=list)
    """Tags copied from the request."""
    split: Literal["train", "test"] = "test"
    """`train` for requests a calibrated selector was fitted on; metrics count `test` only."""
    score: float | None = None
    """Selector confidence for its choice, when it has one."""
    detail: dict[str, Any] = Field(default_factory=dict)
    """Selector extras: raw response, other calls, error message, usage, cost."""
    inline_tokens: int | None = None
    """Tokens the invoked skill adds when loaded into the conversation."""
    fork_tokens: int | None = None
    """Tokens the invoked skill costs when run in a sub-agent."""
    declared_tokens: int | None = None
    """Tokens of the invoked skill under its declared execution context."""
    retrieved: int | None = None
    """Skills the selector's retrieve stage passed on (its k, fewer for a smaller catalog);
    null without a retrieve stage."""
    retrieved_ranks: list[int] | None = None
    """1-based ranks, among the retrieved skills, of the expected skills found there
    (ascending; empty when none was); null without a retrieve stage."""
    full_listing_tokens: int | None = None
    """Tokens of the listing the cell would show without its retrieve stage (null without
    one); `listing_tokens` is the retrieved listing's."""

    @property
    def row_key(self) -> RowKey:
        """The decision the row records (one row per key in a run)."""
        return RowKey(self.key, self.repeat, self.request_id)

    def to_json(self) -> JsonObject:
        """The row as ``results.jsonl`` stores it (unset size fields left out)."""
        return self.model_dump(mode="json")

    @property
    def error(self) -> str | None:
        """The selector's message for a decision that got no answer."""
        if self.outcome != "error":
            return None
        message = self.detail.get("error")
        return str(message) if message is not None else "no answer (no message recorded)"


def group_by_cell(rows: Iterable[ResultRow]) -> dict[CellKey, list[ResultRow]]:
    """Rows per cell (``row.key``), cells and rows in first-seen order."""
    out: dict[CellKey, list[ResultRow]] = {}
    for row in rows:
        out.setdefault(row.key, []).append(row)
    return out
