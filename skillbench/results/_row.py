"""One results row: a decision, the listing it was made on and what it cost."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, SerializationInfo, model_serializer
from pydantic_core.core_schema import SerializerFunctionWrapHandler

from skillbench.types import SIZE_FIELDS, CellKey, DistractorMode, Outcome

SCHEMA_VERSION = "0.2"
"""The run-directory schema this version of skillbench writes."""

KNOWN_VERSIONS = ("0.1", "0.2")
"""Schemas this version reads; 0.1 files carry no ``schema_version`` at all."""


class Record(BaseModel):
    """Base of every stored record: unknown keys are errors, field docstrings document them."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class SizedRecord(Record):
    """A record keyed by a cell: the catalog-size fields are left out of its JSON when unset,
    so a run without a size axis writes the same bytes as before that axis existed."""

    @model_serializer(mode="wrap")
    def _drop_unset_sizes(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name in SIZE_FIELDS:
            if data.get(name, 0) is None:
                del data[name]
        return data


class ResultRow(SizedRecord):
    """One line of ``results.jsonl``: one decision of one cell on one request."""

    schema_version: str = SCHEMA_VERSION
    """Run-directory schema of the row."""
    catalog: str
    """Catalog variant name from the config."""
    profile: str
    """Agent profile whose renderer drew the listing."""
    budget: int | None
    """Effective listing budget in characters (null: the profile has none)."""
    ordering: str
    """Ordering name (`usage`, `alpha`, `rotate:3`, ...)."""
    half_life: str
    """Usage half-life label as configured (`1d`, `7d`, `inf`)."""
    selector: str
    """Selector name from the config."""
    catalog_size: int | None = None
    """Skills the cell's catalog may list (disabled and inactive ones not counted), in a
    catalog-size sweep (absent otherwise)."""
    distractors: DistractorMode | None = None
    """How that catalog was filled beyond its anchors (`random`, `nearest`; absent otherwise)."""
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
    tags: list[str] = []
    """Tags copied from the request."""
    split: Literal["train", "test"] = "test"
    """`train` for requests a calibrated selector was fitted on; metrics count `test` only."""
    score: float | None = None
    """Selector confidence for its choice, when it has one."""
    detail: dict[str, Any] = {}
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
    def key(self) -> CellKey:
        """The summary cell the row belongs to."""
        return CellKey(*(getattr(self, name) for name in CellKey._fields))

    @property
    def error(self) -> str | None:
        """The selector's message for a decision that got no answer."""
        if self.outcome != "error":
            return None
        message = self.detail.get("error")
        return str(message) if message is not None else "no answer (no message recorded)"
