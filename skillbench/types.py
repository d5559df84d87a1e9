"""The shared vocabulary every layer speaks: queries, decisions, outcomes, cell keys, stops.

This module is the ground floor: it imports nothing else from skillbench but ``_excerpt``
(standard library only: how a row reads a value kept as an excerpt), not even for type
checkers (only pydantic, for the stored-record base, the cell key and the results row), so
any package may use it without creating an import cycle. The results row lives here because
every floor from cost up reads it; a record that names a higher floor's types (``Query``
names a request and a listing) lives on the floor of its lowest user instead.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, NamedTuple, Self, get_args

from pydantic import BaseModel, ConfigDict, Field, JsonValue, SerializationInfo, model_serializer
from pydantic_core.core_schema import SerializerFunctionWrapHandler

from skillbench._excerpt import as_text

JsonObject = dict[str, JsonValue]
"""A JSON document: what a file or a wire body holds where no record describes it."""

DecisionKind = Literal["invoke", "abstain", "malformed", "error"]

Outcome = Literal[
    "correct_skill",
    "wrong_skill",
    "missed",
    "false_trigger",
    "correct_abstain",
    "hallucinated",
    "malformed",
    "error",
]
"""How one decision went against its label (see :func:`classify`)."""

OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)

CORRECT: frozenset[Outcome] = frozenset({"correct_skill", "correct_abstain"})
"""Right answers: the acceptable skill invoked, or nothing invoked when nothing was wanted."""

INVOKED: frozenset[Outcome] = frozenset(
    {"correct_skill", "wrong_skill", "false_trigger", "hallucinated"}
)
"""The selector invoked some skill, listed or not."""

UNWANTED: frozenset[Outcome] = frozenset({"false_trigger", "wrong_skill", "hallucinated"})
"""An invocation that should not have happened: on a negative, of the wrong skill, or unlisted."""

NOT_RUN: frozenset[Outcome] = frozenset({"hallucinated", "malformed", "error"})
"""No listed skill actually ran, so an agent's usage history records nothing."""

UNANSWERED: frozenset[Outcome] = frozenset({"error"})
"""The selector gave no answer at all (after its retries). Such decisions are counted apart
and never scored: every rate is over the decisions that completed."""


DistractorMode = Literal["random", "nearest"]
"""How a catalog-size sweep fills a catalog beyond its anchors: a seeded random draw, or the
skills whose listing text is nearest to an anchor's (look-alikes first)."""


class Record(BaseModel):
    """Base of every stored record: unknown keys are errors, field docstrings document them."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class CellKey(Record):
    """What identifies a summary cell: one listing setting and one selector, repeats pooled.

    The one definition of the key fields: results rows and summary cells extend it, so
    ``row.key`` and ``cell.key`` are the same hashable value when they belong together.
    ``catalog_size`` and ``distractors`` are set only in a catalog-size sweep; elsewhere they
    are ``None`` and absent from every file, so older runs read exactly as they were written.
    """

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

    @model_serializer(mode="wrap")
    def _drop_unset_sizes(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        """Leave the size fields (and a row's ``control`` mark) out when unset, so a run
        without a size axis or controls writes the same bytes as before they existed."""
        data: dict[str, Any] = handler(self)
        for name in UNSET_DROPPED:
            if data.get(name, 0) is None:
                del data[name]
        return data

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy whose key is worked out again (``update`` may change a key field)."""
        copy = super().model_copy(update=update, deep=deep)
        copy.__dict__.pop("key", None)
        return copy

    @cached_property
    def key(self) -> CellKey:
        """The key alone (a row's or a cell's own fields dropped): hashable, for grouping;
        made once per record, as reports group tens of thousands of rows by it."""
        if type(self) is CellKey:
            return self
        return CellKey.model_construct(**{name: getattr(self, name) for name in CELL_FIELDS})

    @property
    def path(self) -> str:
        """``devtools/codebot/2000/usage/7d/lexical``: the key fields, unset sizes left out."""
        return "/".join(str(getattr(self, name)) for name in cell_fields([self]))


CELL_FIELDS: tuple[str, ...] = tuple(CellKey.model_fields)
"""The field names of :class:`CellKey`, in order."""

SIZE_FIELDS: tuple[str, ...] = ("catalog_size", "distractors")
"""The key fields of the catalog-size sweep: written only when the run has that axis."""

UNSET_DROPPED: tuple[str, ...] = (*SIZE_FIELDS, "control")
"""Fields left out of a file when unset (null)."""


def cell_fields(keys: Iterable[CellKey]) -> tuple[str, ...]:
    """The key fields ``keys`` use: every field, less the size fields none of them set.

    Tables, CSV headers and notes list these, so a run without a size axis shows no empty
    size columns.
    """
    keys = list(keys)
    unused = {f for f in SIZE_FIELDS if all(getattr(k, f) is None for k in keys)}
    return tuple(f for f in CELL_FIELDS if f not in unused)


@dataclass(frozen=True, slots=True)
class Decision:
    """What a selector did.

    Attributes:
        kind: invoke (``chosen`` set), abstain, malformed (unusable tool call) or error (no
            answer after the selector's retries; never scored).
        chosen: the skill name the model invoked, verbatim (may be unlisted: hallucinated).
        score: the selector's confidence for ``chosen`` (similarity, BM25 …), when it has one.
        latency_ms: the selector's own timing of this decision (0: let the engine measure).
        detail: extra facts kept in results (raw response, other tool calls, error message,
            token usage, cost); must be JSON-serialisable and never contain secrets.
    """

    kind: DecisionKind
    chosen: str | None = None
    score: float | None = None
    latency_ms: float = 0.0
    detail: Mapping[str, object] = field(default_factory=dict)


LISTING_MISMATCH = "listing_mismatch"
"""The ``detail`` key of a live decision whose agent listed something else than the cell
rendered: the first difference, in words."""


class RunStopped(Exception):
    """Raised by a selector to end the run cleanly (e.g. a spend cap was reached).

    The engine keeps every finished decision, writes the summary of what was done and records
    ``status: stopped`` with ``reason`` in the manifest; ``--resume`` continues later.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def classify(expected: Collection[str], decision: Decision, shown: Collection[str]) -> Outcome:
    """The outcome of ``decision`` given the acceptable names and the names shown.

    A name that was not shown is ``hallucinated`` even when it is the expected skill: the
    listing did not offer it, so the model could only have guessed it.
    """
    if decision.kind == "error":
        return "error"
    if decision.kind == "malformed":
        return "malformed"
    chosen = decision.chosen if decision.kind == "invoke" else None
    if chosen is not None and chosen not in shown:
        return "hallucinated"
    if not expected:
        return "correct_abstain" if chosen is None else "false_trigger"
    if chosen is None:
        return "missed"
    return "correct_skill" if chosen in expected else "wrong_skill"


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
    pre-flight and waits between retries excluded), an agent's whole turn, else the
    decision's share of its batch."""
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
    """Selector extras: raw response, other calls, error message, usage, cost. A string past
    16,384 characters is kept as an excerpt `{excerpt, bytes, sha256, head, tail}` (a value
    still past 65,536 as one of its JSON, with `json`) unless the run keeps raw answers."""
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
    control: bool | None = None
    """`true` for a positive control (a request naming its skill explicitly), counted apart
    from every metric and the gate; absent otherwise."""

    @property
    def row_key(self) -> RowKey:
        """The decision the row records (one row per key in a run)."""
        return RowKey(self.key, self.repeat, self.request_id)

    def to_json(self) -> JsonObject:
        """The row as ``results.jsonl`` stores it (unset size fields left out)."""
        return self.model_dump(mode="json")

    @property
    def listing_mismatch(self) -> str | None:
        """Where the listing the agent really sent first differs from the cell's rendered
        one (a live decision's ``detail``; None when they agree or nothing was compared)."""
        found = self.detail.get(LISTING_MISMATCH)
        return as_text(found) if found is not None else None

    @property
    def error(self) -> str | None:
        """The selector's message for a decision that got no answer."""
        if self.outcome != "error":
            return None
        message = self.detail.get("error")
        return as_text(message) if message is not None else "no answer (no message recorded)"


def expected_shown(row: ResultRow) -> bool:
    """Whether a decision could have been right from what its listing showed: a negative,
    or a positive whose expected skill (one of them) was shown.

    Confusions, pair overlaps and rewrite targets count only these decisions: a request
    whose skill the listing never offered says nothing about how descriptions read.
    """
    return row.visible is not False
