"""The plan as data: what ``plan --format json`` prints (``plan_schema()`` is its schema)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from skillbench.authoring import TunePaired
from skillbench.types import JsonObject

PlanFate = Literal["full", "cut", "name_only", "hidden", "not_loaded"]
"""full: the whole description; cut: shortened to ``chars``; name_only: the name alone;
hidden: not in the listing; not_loaded: the loader set it aside."""

Reason = Literal[
    "fits", "budget", "usage_rank", "entry_cap", "paths", "flags", "profile_rule", "loader_rule"
]
"""Why a skill has its fate: everything fits; the budget cut it; the budget and the usage
ranking chose others' descriptions; the per-entry cap cut it; a ``paths`` skill not active;
a frontmatter flag (``disable-model-invocation``); a profile rule; the loader."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True)


class SkillFate(_Record):
    """One skill in one listing."""

    name: str
    source: str
    fate: PlanFate
    chars: int | None
    """Description characters shown when ``cut``."""
    position: int | None
    reason: Reason
    why: str


class Budget(_Record):
    """The budget in the agent's own units and how it was derived."""

    value: int | None
    unit: Literal["characters", "tokens"]
    how: str
    window: int | None
    """The model's context window in tokens, when the budget follows one."""


class Today(_Record):
    """What the agent shows of the catalog now."""

    budget: Budget
    used: int | None
    listing_chars: int
    tokens_per_turn: int
    tokenizer: str
    turns: int
    tokens_per_session: int
    window_share: float | None
    """Listing tokens over the context window (None: no window known)."""
    counts: dict[str, int]
    skills: list[SkillFate]


class Step(_Record):
    """The listing ``day`` days later with no new use."""

    day: int
    counts: dict[str, int]
    name_only: list[str]
    fell: list[str]
    """Skills that lost their descriptions since the previous step."""
    restored: list[str]


class FitValue(_Record):
    """A knob's value that makes every description fit (``value`` None: none does)."""

    setting: str
    where: str
    value: str | None
    budget: int | None
    note: str = ""


class CurvePoint(_Record):
    """Shares of listable skills at one budget."""

    budget: int
    full: float
    shown: float


class Loss(_Record):
    """A skill that keeps its description only at ``below`` or more (largest budget on the
    curve where it did not)."""

    name: str
    below: int


class Fits(_Record):
    """The smallest budget at which every description is listed in full."""

    budget: int
    unit: Literal["characters", "tokens"]
    default_budget: int | None
    fits_default: bool
    checked_below: bool
    """Rendering one step below ``budget`` cut some description (the search's own check)."""
    values: list[FitValue]
    capped: list[str]
    """Skills a per-entry cap cuts at any budget (only an edit makes them whole)."""
    curve: list[CurvePoint]
    losing_first: list[Loss]


class Edit(_Record):
    """One description edit of a trim plan."""

    name: str
    path: str | None
    before: str
    after: str
    saved: int


class Judged(_Record):
    """Trimmed (``tuned``) against as-is (``budget`` the target) or against full text
    (``unlimited``) on the same requests: per-request accuracy, exact McNemar, a bootstrap
    interval and unwanted invocations, as ``tune`` reports them."""

    selector: str
    budget: Literal["target", "unlimited"]
    stats: TunePaired


class Trim(_Record):
    """Description edits that make every description fit at ``target``."""

    target: int
    unit: Literal["characters", "tokens"]
    fits: bool
    """A render of the trimmed catalog at ``target`` lists every description in full."""
    saved: int
    edits: list[Edit]
    judged: list[Judged]
    proposed: bool
    verdict: str


class AgentPlan(_Record):
    """Everything ``plan`` says about one profile."""

    profile: str
    agent_version: str | None
    options: JsonObject
    today: Today
    timeline: list[Step]
    fits: Fits
    trim: Trim | None = None


class PlanReport(_Record):
    """The whole plan."""

    sources: list[str]
    skills: int
    now: str
    weeks: int
    usage: str | None
    agents: list[AgentPlan]


def plan_schema() -> JsonObject:
    """The JSON schema of ``plan --format json``."""
    return PlanReport.model_json_schema()
