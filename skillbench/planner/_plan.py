"""``plan_catalog``: today's listing per agent, its decay over weeks, what fits, and a trim
plan judged by replay."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.agentspec import default_agents
from skillbench.authoring import CatalogCopy
from skillbench.catalog import Catalog, SourceSpec, load_catalog
from skillbench.listing import PROFILES, AgentSnapshot, RenderOptions
from skillbench.planner._fits import what_fits
from skillbench.planner._judge import Judging, judge, trimmed_copy, verdict
from skillbench.planner._knobs import derive, knobs_for
from skillbench.planner._records import AgentPlan, Edit, PlanReport, Trim
from skillbench.planner._setup import Setup
from skillbench.planner._today import timeline, today
from skillbench.planner._trim import trim
from skillbench.types import JsonObject, JsonValue
from skillbench.usage import UsageTracker

Progress = Callable[[str], None]


@dataclass(frozen=True)
class PlanOptions:
    """What to plan.

    Attributes:
        profiles: profile names (``AGENT`` or ``AGENT@VERSION``); by default the default
            agents' (``AgentSpec.default``).
        budget: the budget option (the agent's own units), None: its default.
        model: the agent's model (where the budget follows it: its window and characters
            per token).
        window: the model's context window in tokens.
        extra: further profile options, each given to the profiles that take it.
        usage: usage history (None: none).
        now: the time of day 0.
        weeks: weekly steps of the timeline.
        turns: turns of a session the listing is costed over.
        tokenizer: the model whose tokenizer counts the listing's tokens.
        trim: plan description edits that fit at the budget.
        judging: requests to judge the trim by (None: not judged, so not proposed).
    """

    profiles: tuple[str, ...] = field(
        default_factory=lambda: tuple(spec.name for spec in default_agents())
    )
    budget: int | None = None
    model: str | None = None
    window: int | None = None
    extra: RenderOptions = field(default_factory=dict)
    usage: UsageTracker | None = None
    usage_source: str | None = None
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    weeks: int = 4
    turns: int = 10
    tokenizer: str = "gpt-4o"
    trim: bool = False
    judging: Judging | None = None


def profile_options(name: str, options: PlanOptions) -> RenderOptions:
    """The render options of profile ``name`` under ``options``."""
    profile = PROFILES.get(name)
    out: dict[str, JsonValue | AgentSnapshot] = {}
    if options.model:
        out.update(knobs_for(name).model_options(options.model))
    if options.window is not None:
        out["context_window"] = options.window
    if options.budget is not None and "budget" in profile.options:
        out["budget"] = options.budget
    out.update({k: v for k, v in options.extra.items() if k in profile.options})
    profile.check_options(out)
    return out


def check_extra(options: PlanOptions) -> None:
    """An extra option no planned profile takes is a mistake, not something to drop."""
    for key in options.extra:
        if not any(key in PROFILES.get(p).options for p in options.profiles):
            raise SkillbenchError(
                f"--option {key}: none of the profiles {', '.join(options.profiles)} takes it"
            )


def load_usage(path: str | Path) -> UsageTracker:
    """A usage file: skillbench's (``import``, ``render --usage``) or an agent's own file
    holding a ``skillUsage`` object (``usageCount`` and ``lastUsedAt`` per skill), scored by
    the ``last_use`` rule (7-day half-life, floor 0.1)."""
    from skillbench._io import read_text

    text = read_text(Path(path)).text
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SkillbenchError(f"{path}:{exc.lineno}: not JSON ({exc.msg})") from None
    if isinstance(data, dict) and isinstance(data.get("skillUsage"), dict):
        return UsageTracker.from_json(_agent_usage(path, data["skillUsage"]), source=str(path))
    return UsageTracker.load(path)


def _agent_usage(path: str | Path, usage: Mapping[str, object]) -> JsonObject:
    out: JsonObject = {}
    for name, record in usage.items():
        if not isinstance(record, dict):
            raise SkillbenchError(f"{path}: skillUsage.{name}: expected an object")
        count, last = record.get("usageCount"), record.get("lastUsedAt")
        if not isinstance(count, int) or not isinstance(last, int | float):
            raise SkillbenchError(
                f"{path}: skillUsage.{name}: needs usageCount (integer) and lastUsedAt (ms)"
            )
        when = datetime.fromtimestamp(last / 1000, UTC).isoformat()
        out[name] = {"count": count, "last_used": when}
    return out


@dataclass
class Planned:
    """The report, and each trimmed copy (profile → copy) for ``changes.diff`` and apply."""

    report: PlanReport
    copies: dict[str, CatalogCopy] = field(default_factory=dict)


def _json_options(options: RenderOptions) -> JsonObject:
    return {k: v for k, v in options.items() if isinstance(v, str | int | float | bool | dict)}


def plan_agent(
    catalog: Catalog,
    sources: Sequence[SourceSpec],
    name: str,
    options: PlanOptions,
    work: Path | None,
    progress: Progress,
) -> tuple[AgentPlan, CatalogCopy | None]:
    """One profile's plan (and its trimmed copy, when a trim was asked and edits were
    found)."""
    profile = PROFILES.get(name)
    render_options = profile_options(name, options)
    budget = None if "budget" in render_options else options.budget
    setup = Setup(catalog, profile, render_options, budget)
    derivation = derive(profile, render_options, budget)
    scores = options.usage.scores(options.now) if options.usage is not None else {}
    progress(f"{name}: today's listing")
    now = today(setup, derivation, scores, tokenizer=options.tokenizer, turns=options.turns)
    progress(f"{name}: {options.weeks} weekly steps")
    steps = timeline(setup, options.usage, options.now, options.weeks)
    progress(f"{name}: the smallest budget that fits")
    fits = what_fits(setup, derivation)
    planned_trim, copy = None, None
    if options.trim and derivation.budget is not None:
        progress(f"{name}: trim plan at {derivation.budget:,} {derivation.unit}")
        planned_trim, copy = _trim(setup, sources, derivation.budget, options, work, progress)
    plan = AgentPlan(
        profile=name,
        agent_version=profile.agent_version,
        options=_json_options(render_options),
        today=now,
        timeline=steps,
        fits=fits,
        trim=planned_trim,
    )
    return plan, copy


def _trim(
    setup: Setup,
    sources: Sequence[SourceSpec],
    target: int,
    options: PlanOptions,
    work: Path | None,
    progress: Progress,
) -> tuple[Trim, CatalogCopy | None]:
    result = trim(setup, target)
    skills = {s.name: s for s in setup.catalog.skills}
    edits = [
        Edit(
            name=n,
            path=skills[n].path,
            before=skills[n].description,
            after=text,
            saved=len(skills[n].description) - len(text),
        )
        for n, text in sorted(result.descriptions.items())
    ]
    copy, judged = None, []
    if edits and work is not None:
        copy = trimmed_copy(
            setup, sources, result.descriptions, work / f"trimmed-{setup.profile.name}"
        )
        if options.judging is not None and result.fits:
            judging = options.judging._replace(work=work / f"judge-{setup.profile.name}")
            judged = judge(setup, sources, copy, target, judging, progress)
    decision = verdict(result.fits, judged) if edits else None
    return (
        Trim(
            target=target,
            unit=derive(setup.profile, setup.options, setup.budget).unit,
            fits=result.fits,
            saved=sum(e.saved for e in edits),
            edits=edits,
            judged=judged,
            proposed=decision.proposed if decision else False,
            verdict=decision.reason if decision else "every description already fits",
        ),
        copy,
    )


def plan_catalog(
    sources: Sequence[SourceSpec],
    options: PlanOptions,
    *,
    cwd: str | None = None,
    work: Path | None = None,
    progress: Progress = lambda _: None,
) -> Planned:
    """The plan of the catalog ``sources`` for each of ``options.profiles``; trimmed copies
    and replays go under ``work`` (None: a trim is planned but not written or judged)."""
    check_extra(options)
    agents, copies = [], {}
    total = 0
    for name in options.profiles:
        catalog = load_catalog(sources, profile=name, cwd=cwd)
        total = max(total, len(catalog.skills))
        plan, copy = plan_agent(catalog, sources, name, options, work, progress)
        agents.append(plan)
        if copy is not None:
            copies[name] = copy
    report = PlanReport(
        sources=[f"{s.kind}={s.path}" for s in sources],
        skills=total,
        now=options.now.isoformat(),
        weeks=options.weeks,
        usage=options.usage_source,
        agents=agents,
    )
    return Planned(report, copies)
