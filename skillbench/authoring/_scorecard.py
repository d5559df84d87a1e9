"""The ``eval`` scorecard: what each query did and how each skill's set fared.

These models are the JSON schema of ``skillbench eval --format json`` (docs/eval.md is
generated from their field docstrings).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from skillbench.metrics import wilson_json

EVAL_SCHEMA_VERSION = "1"
TRIGGER_THRESHOLD = 0.5
"""skill-creator's rule: a should-trigger query passes at a trigger rate of at least 0.5, a
should-not query below it."""

QuerySplit = Literal["train", "validation"]
EvalStatus = Literal["complete", "incomplete", "stopped"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class QueryResult(_Model):
    """One query of a trigger set, replayed ``runs`` times."""

    id: str
    """`skill#n`: the skill and the query's 1-based position in its set."""
    text: str
    """The query."""
    should_trigger: bool
    """The label: whether the skill should fire."""
    none_should_trigger: bool
    """A should-not query on which any skill firing counts as triggering."""
    file: str
    """The eval file holding the query."""
    line: int | None
    """The line of the query's object in that file."""
    split: QuerySplit | None
    """`train` or `validation` when the set is split; null otherwise."""
    runs: int
    """Runs that got an answer (errors excluded)."""
    errors: int
    """Runs that got no answer after the selector's retries."""
    triggered: int
    """Runs in which the skill fired (any skill, for a `none_should_trigger` query)."""
    trigger_rate: float | None
    """triggered / runs (null when no run got an answer)."""
    passed: bool | None
    """Rate >= 0.5 for a should-trigger query, < 0.5 for a should-not one (null: unanswered)."""
    fired: dict[str, int]
    """What was invoked across the runs: skill name → runs (`none` for no skill)."""


class PassRate(_Model):
    """Passing queries among the answered ones, with a Wilson 95% interval."""

    passed: int
    """Queries that passed."""
    n: int
    """Queries with at least one answered run."""
    rate: float | None
    """passed / n (null when n is 0)."""
    ci: list[float] | None
    """Wilson 95% interval of rate (null when n is 0)."""

    @classmethod
    def of(cls, results: list[QueryResult]) -> PassRate:
        answered = [r for r in results if r.passed is not None]
        passed = sum(bool(r.passed) for r in answered)
        n = len(answered)
        return cls(passed=passed, n=n, rate=passed / n if n else None, ci=wilson_json(passed, n))


class SkillScorecard(_Model):
    """One skill's trigger set replayed with the whole catalog listed around it."""

    skill: str
    """The skill's name."""
    skill_dir: str
    """Its folder."""
    files: list[str]
    """The eval files its trigger queries came from."""
    output_evals_ignored: int
    """Items of those files that are output evals (`expected_output`), not trigger queries."""
    catalog_size: int
    """Skills in the catalog the skill was listed among."""
    should_trigger: PassRate
    """Pass rate on the should-trigger queries."""
    should_not_trigger: PassRate
    """Pass rate on the should-not queries."""
    overall: PassRate
    """Pass rate on every query."""
    validation: PassRate | None
    """Pass rate on the validation split (skill-creator's 40% held out, seed 42); null when
    the set has fewer than two queries of either label."""
    failing: list[str]
    """Ids of the queries that failed."""
    unanswered: list[str]
    """Ids of the queries no run answered (not scored)."""
    gate: bool | None
    """Whether the overall pass rate reaches `--min-pass-rate` (null without one)."""
    queries: list[QueryResult]
    """Every query, in the set's order."""


class ChangedSelection(_Model):
    """The skills a PR-scoped gate picked."""

    base_ref: str
    """The git ref compared against (`BASE...HEAD` plus uncommitted changes)."""
    changed: list[str]
    """Skills with a changed file."""
    lookalikes: dict[str, list[str]]
    """Per changed skill, the skills most likely to be confused with it that were added."""


class EvalReport(_Model):
    """Everything ``skillbench eval`` measured."""

    schema_version: str = EVAL_SCHEMA_VERSION
    """Schema of this report."""
    status: EvalStatus
    """`complete`, or why some runs got no answer (`incomplete`, `stopped`)."""
    reason: str | None
    """Why the replay is not complete."""
    profile: str
    """Agent profile whose renderer listed the catalog."""
    budget: int | None
    """Listing budget in characters (null: the profile's default)."""
    selector: str
    """The selector: `embedding`, another offline selector, or `litellm:<model>`."""
    repeats: int
    """Runs per query."""
    threshold: float
    """Trigger-rate threshold of the pass rule."""
    min_pass_rate: float | None
    """The gate's floor on each skill's overall pass rate (null: no gate)."""
    changed: ChangedSelection | None
    """What `--changed` picked (null without it)."""
    skills: list[SkillScorecard]
    """One scorecard per skill, in the order given."""
    without_set: list[str] = []
    """Skills found (in a folder of skills, or picked by `--changed`) with no eval file."""

    @property
    def gate_failed(self) -> bool:
        return any(s.gate is False for s in self.skills)
