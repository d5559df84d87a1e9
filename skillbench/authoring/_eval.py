"""``eval``: replay each skill's trigger set with its whole catalog listed around it.

Skills sharing a catalog are replayed together, once, by the replay engine: one request per
query, the profile's renderer drawing the listing, ``repeats`` runs each. A query is then
scored for its own skill only: it "triggers" when that skill was invoked (any skill, for a
``none_should_trigger`` query), and passes by skill-creator's 0.5 rule on the trigger rate.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.authoring._eval_targets import LoadedTarget
from skillbench.authoring._scorecard import (
    TRIGGER_THRESHOLD,
    ChangedSelection,
    EvalReport,
    EvalStatus,
    PassRate,
    QueryResult,
    QuerySplit,
    SkillScorecard,
)
from skillbench.authoring._split import write_requests
from skillbench.evalsets import HOLDOUT, TriggerQuery, TriggerSet, validation_split
from skillbench.replay import RunConfig, SelectorConfig, SourceConfig, UsageConfig, run_experiment
from skillbench.results import ResultRow, read_run


@dataclass(frozen=True)
class EvalOptions:
    """How to replay the sets.

    Attributes:
        profile: agent profile whose loader and renderer build the listing.
        selector: the selector's config entry (``type`` and params).
        repeats: runs per query.
        budget: listing budget in characters (None: the profile's).
        holdout: share of each label held out as validation (0: no split).
        min_pass_rate: a skill's gate floor on its overall pass rate (None: no gate).
        seed: the replay's seed.
        max_concurrency: concurrent calls per endpoint of a model selector.
        allow_failed_controls: a model whose positive controls failed still completes.
    """

    profile: str = "codebot"
    selector: SelectorConfig = field(default_factory=lambda: SelectorConfig(type="embedding"))
    repeats: int = 3
    budget: int | None = None
    holdout: float = HOLDOUT
    min_pass_rate: float | None = None
    seed: int = 0
    max_concurrency: int = 8
    allow_failed_controls: bool = False

    @property
    def selector_label(self) -> str:
        model = self.selector.params.get("model")
        return self.selector.type if model is None else f"{self.selector.type}:{model}"


def _display(path: Path | str) -> str:
    """``path`` relative to the current directory when under it, so reports and annotations
    carry repository paths rather than machine-specific ones."""
    resolved = Path(path).resolve()
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(resolved)


def eval_config(
    sources: Sequence[str], requests: Path, options: EvalOptions, name: str = "eval"
) -> RunConfig:
    """The run config replaying ``requests`` over the catalog of ``sources``: the profile's
    listing in loading order, no usage history steering it."""
    return RunConfig(
        name=name,
        catalogs={"skills": [SourceConfig(path=str(Path(s).resolve())) for s in sources]},
        requests=str(requests),
        profiles=[options.profile],
        budgets=[options.budget],
        orderings=["given"],
        selectors=[options.selector],
        repeats=options.repeats,
        seed=options.seed,
        usage=UsageConfig(record="label"),
    )


def _query_result(
    trigger_set: TriggerSet,
    query: TriggerQuery,
    rows: Sequence[ResultRow],
    split: QuerySplit | None,
) -> QueryResult:
    answered = [r for r in rows if r.outcome != "error"]
    fired = Counter(str(r.chosen or "none") for r in answered)
    if query.none_should_trigger:
        triggered = sum(r.chosen is not None for r in answered)
    else:
        triggered = sum(r.chosen == trigger_set.skill for r in answered)
    rate = triggered / len(answered) if answered else None
    passed = None
    if rate is not None:
        passed = rate >= TRIGGER_THRESHOLD if query.should_trigger else rate < TRIGGER_THRESHOLD
    return QueryResult(
        id=trigger_set.request_id(query),
        text=query.text,
        should_trigger=query.should_trigger,
        none_should_trigger=query.none_should_trigger,
        file=_display(query.file),
        line=query.line,
        split=split,
        runs=len(answered),
        errors=len(rows) - len(answered),
        triggered=triggered,
        trigger_rate=rate,
        passed=passed,
        fired=dict(sorted(fired.items())),
    )


def scorecard(
    loaded: LoadedTarget,
    rows: Sequence[ResultRow],
    catalog_size: int,
    options: EvalOptions,
) -> SkillScorecard:
    """One skill's scorecard from the replay rows of its requests."""
    trigger_set = loaded.trigger_set
    by_request: dict[str, list[ResultRow]] = defaultdict(list)
    for row in rows:
        by_request[row.request_id].append(row)
    split = validation_split(trigger_set.queries, options.holdout)
    held = {id(q) for q in split.validation} if split else set()

    def part(query: TriggerQuery) -> QuerySplit | None:
        return None if split is None else "validation" if id(query) in held else "train"

    results = [
        _query_result(trigger_set, q, by_request[trigger_set.request_id(q)], part(q))
        for q in trigger_set.queries
    ]
    overall = PassRate.of(results)
    gate = None
    if options.min_pass_rate is not None:
        gate = overall.rate is not None and overall.rate >= options.min_pass_rate
    return SkillScorecard(
        skill=trigger_set.skill,
        skill_dir=_display(trigger_set.skill_dir),
        files=[_display(f) for f in trigger_set.files],
        output_evals_ignored=trigger_set.output_evals,
        catalog_size=catalog_size,
        should_trigger=PassRate.of([r for r in results if r.should_trigger]),
        should_not_trigger=PassRate.of([r for r in results if not r.should_trigger]),
        overall=overall,
        validation=None
        if split is None
        else PassRate.of([r for r in results if r.split == "validation"]),
        failing=[r.id for r in results if r.passed is False],
        unanswered=[r.id for r in results if r.passed is None],
        gate=gate,
        queries=results,
    )


def evaluate(
    loaded: Sequence[LoadedTarget],
    options: EvalOptions,
    work_dir: Path,
    changed: ChangedSelection | None = None,
    without_set: Sequence[str] = (),
) -> EvalReport:
    """Replay every target's set (one replay per distinct catalog) under ``work_dir`` and
    score it.

    Raises:
        SkillbenchError: a replay that failed (a selector that cannot go on).
    """
    groups: dict[tuple[str, ...], list[LoadedTarget]] = {}
    for item in loaded:
        groups.setdefault(item.target.sources, []).append(item)
    cards: dict[str, SkillScorecard] = {}
    status: EvalStatus = "complete"
    reasons: list[str] = []
    for index, (sources, members) in enumerate(groups.items()):
        run_dir = work_dir / f"catalog-{index}"
        run_dir.mkdir(parents=True, exist_ok=True)
        requests = write_requests(
            [r for m in members for r in m.trigger_set.requests()], run_dir / "requests.jsonl"
        )
        config = eval_config(sources, requests, options)
        result = run_experiment(
            config,
            output=run_dir / "run",
            overwrite=True,
            quiet=True,
            max_concurrency=options.max_concurrency,
            allow_failed_controls=options.allow_failed_controls,
        )
        if result.status != "complete":
            status = "stopped" if result.status == "stopped" else "incomplete"
            reasons.append(str(result.reason))
        replayed = read_run(result.run_dir)
        if replayed.manifest is None:
            raise SkillbenchError(f"{result.run_dir}: the replay wrote no manifest")
        catalog_size = replayed.manifest.catalogs["skills"].active
        for member in members:
            own = [r for r in replayed.rows if r.request_id.startswith(f"{member.skill.name}#")]
            cards[str(member.target.skill_dir)] = scorecard(member, own, catalog_size, options)
    return EvalReport(
        status=status,
        reason="; ".join(reasons) or None,
        profile=options.profile,
        budget=options.budget,
        selector=options.selector_label,
        repeats=options.repeats,
        threshold=TRIGGER_THRESHOLD,
        min_pass_rate=options.min_pass_rate,
        changed=changed,
        skills=[cards[str(item.target.skill_dir)] for item in loaded],
        without_set=list(without_set),
    )
