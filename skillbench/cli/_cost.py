"""``skillbench cost``: token and dollar cost of each skill and of the listing; runs no model."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import TYPE_CHECKING, NamedTuple, TypedDict

from skillbench.agents import SESSION_AGENTS
from skillbench.cli._common import (
    EXIT_OK,
    add_cwd,
    add_format,
    add_profile_and_budget,
    add_sources,
    env_default,
    non_negative_int,
    positive_int,
)
from skillbench.listing import PROFILES, render_listing
from skillbench.types import JsonObject

if TYPE_CHECKING:
    from skillbench.cost import CostModel, ListingCost, Pricing, SkillCost

HELP = "per-skill inline vs fork token cost, break-even turns and the listing's per-turn cost"
DESCRIPTION = """\
Cost every skill of a catalog in both execution modes without running any model:
body tokens (wrapped and expanded as the model path would inject it), inline tokens
(the body carried by every remaining turn), fork tokens (a sub-agent's prompt and work,
then only its summary carried), the break-even number of remaining turns at which fork
gets cheaper, a recommendation at --horizon, and what the rendered listing costs per turn.
Shell injections (!`cmd`) are shown and counted, never executed. Formulas: docs/cost.md.

The fork constants (sub-agent prompt, work, summary) are the modelled defaults, or, for a
--profile verified against an agent version that `cost --measure` has calibrated, the
measured ones; the first line says which. --fork-* and --summary-tokens replace both.

--measure AGENT runs the installed agent CLI offline instead (a scripted loopback model):
each skill once inline and once forked (on an agent with no context: fork, the model hands
the task to the agent's sub-agent tool, which calls the skill), then --follow-ups user
turns; it prints measured
beside modelled tokens, the break-even turn, what the model got wrong, and stores the
calibrated constants in the agent version's cache folder.

SOURCE is [KIND=]PATH as for `skillbench catalog`.

examples:
  skillbench cost datasets/devtools/skills/project
  skillbench cost bundled=./builtin project=./.claude/skills --model claude-sonnet-4-5
  skillbench cost ./skills --horizon 20 --format json
  skillbench cost project=datasets/devtools/skills/project --measure {forks} \\
      --skill perf-profile --skill review
  skillbench cost project=datasets/devtools/skills/project --measure {delegates} \\
      --skill dockerfile --follow-ups 1,2
"""


def description() -> str:
    """The help text, measuring one agent whose skills fork themselves (``context: fork``)
    and one that hands a sub-agent the task."""
    from skillbench.agentspec import AGENT_SPECS

    forks = {
        s.name: s.live.sessions.fork == "context"
        for s in AGENT_SPECS.values()
        if s.live.sessions is not None
    }
    return DESCRIPTION.format(
        forks=next(name for name, own in forks.items() if own),
        delegates=next(name for name, own in forks.items() if not own),
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_sources(parser)
    parser.add_argument(
        "--model",
        default=env_default("model", "gpt-4o"),
        help="tokenizer and prices from litellm's cost map (default: gpt-4o) "
        "[env: SKILLBENCH_MODEL]",
    )
    add_profile_and_budget(parser, PROFILES.names(), "precedence and the listing")
    add_cwd(parser)
    parser.add_argument(
        "--horizon",
        type=positive_int,
        default=None,
        help="remaining turns to cost each mode at (default: 10)",
    )
    parser.add_argument(
        "--fork-system-tokens",
        type=non_negative_int,
        default=None,
        help="sub-agent system prompt tokens (default: 1000)",
    )
    parser.add_argument(
        "--fork-work-tokens",
        type=non_negative_int,
        default=None,
        help="extra tokens a sub-agent spends re-reading context (default: 1000)",
    )
    parser.add_argument(
        "--summary-tokens",
        type=non_negative_int,
        default=None,
        help="sub-agent summary returned to the main context (default: 200)",
    )
    parser.add_argument(
        "--measure",
        metavar="AGENT",
        choices=SESSION_AGENTS.names(),
        help="measure on the installed agent CLI and calibrate (choices: %(choices)s)",
    )
    parser.add_argument(
        "--skill",
        action="append",
        default=None,
        help="with --measure: only this skill (repeatable; default: every skill)",
    )
    parser.add_argument(
        "--follow-ups",
        type=follow_ups,
        default=(1, 5, 10),
        help="with --measure: follow-up turns to total over, comma-separated (default: 1,5,10)",
    )
    add_format(parser, ["text", "json"], "text")


def follow_ups(text: str) -> tuple[int, ...]:
    """argparse ``type`` for ``1,5,10``: distinct counts of at least 1, sorted."""
    values = sorted({positive_int(part) for part in text.split(",") if part.strip()})
    if not values:
        raise argparse.ArgumentTypeError("expected counts such as 1,5,10")
    return tuple(values)


class ForkOverrides(TypedDict, total=False):
    """Fork constants given on the command line, by ``CostModel`` field."""

    fork_system_prompt_tokens: int
    fork_work_tokens: int
    summary_tokens: int


def fork_overrides(args: argparse.Namespace) -> ForkOverrides:
    """The fork constants given on the command line (the flags left out are absent)."""
    given = ForkOverrides()
    if args.fork_system_tokens is not None:
        given["fork_system_prompt_tokens"] = args.fork_system_tokens
    if args.fork_work_tokens is not None:
        given["fork_work_tokens"] = args.fork_work_tokens
    if args.summary_tokens is not None:
        given["summary_tokens"] = args.summary_tokens
    return given


class CostReport(NamedTuple):
    """What ``cost`` prints: the prices and fork constants used, then each skill's costs and
    the listing's."""

    pricing: Pricing
    cost_model: CostModel
    fork_constants: str
    """Where the fork constants come from (modelled, calibrated or given by hand)."""
    profile: str
    budget: int | None
    skills: list[SkillCost]
    listing: ListingCost

    def to_json(self) -> JsonObject:
        """The ``--format json`` document."""
        return {
            "model": self.pricing.model,
            "pricing": asdict(self.pricing),
            "cost_model": asdict(self.cost_model),
            "fork_constants": self.fork_constants,
            "profile": self.profile,
            "budget": self.budget,
            "skills": [{**asdict(s), "verdict": s.verdict} for s in self.skills],
            "listing": asdict(self.listing),
        }


def run(args: argparse.Namespace) -> int:
    if args.measure:
        from skillbench.cli._cost_measure import run_measure

        return run_measure(args)
    from skillbench.catalog import load_catalog
    from skillbench.cost import (
        DEFAULT_HORIZON,
        MODELLED,
        CostModel,
        listing_cost,
        pricing_for,
        profile_calibration,
        skill_costs,
    )

    given = fork_overrides(args)
    horizon = args.horizon or DEFAULT_HORIZON
    cost_model = CostModel(model=args.model, horizon=horizon, **given)
    if not given:
        cost_model = profile_calibration(args.profile, cost_model)
    constants = cost_model.basis
    profile = PROFILES.get(args.profile)
    version, agent = profile.agent_version, profile.agent
    if given:
        constants += " (given by hand)"
    elif cost_model.basis == MODELLED and version and agent in SESSION_AGENTS.names():
        constants += (
            f" (no calibration of {agent} {version} in the cache: "
            f"`skillbench cost --measure {agent}` measures it)"
        )
    pricing = pricing_for(args.model)
    catalog = load_catalog(args.sources, profile=args.profile, cwd=args.cwd)
    listing = render_listing(
        catalog.skills, profile=args.profile, budget=args.budget, inactive=catalog.inactive
    )
    report = CostReport(
        pricing,
        cost_model,
        constants,
        args.profile,
        listing.budget,
        skill_costs(catalog.skills, cost_model, pricing, horizon=horizon),
        listing_cost(listing.text, args.model, pricing, horizon=horizon),
    )
    if args.format == "json":
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(to_text(report))
    return EXIT_OK


def to_text(report: CostReport) -> str:
    """The recommendation table, then the listing line and any shell injections."""
    model, p = report.cost_model, report.pricing
    horizon = model.horizon
    cache = "" if p.cache_read is None else f", cache read ${p.cache_read * 1e6:.2f}"
    lines = [
        f"fork constants: {report.fork_constants}",
        f"model {p.model}: ${p.input * 1e6:.2f} input, "
        f"${p.output * 1e6:.2f} output per 1M tokens{cache}",
        f"fork = system {model.fork_system_prompt_tokens} + body + request + work "
        f"{model.fork_work_tokens} + summary {model.summary_tokens} "
        f"(summary carried by each remaining turn); inline = body × remaining turns",
        "",
    ]
    header = (
        "SKILL",
        "SOURCE",
        "VIA",
        "MODE",
        "BODY",
        "!CMD",
        f"INLINE@{horizon}",
        f"FORK@{horizon}",
        "BREAK-EVEN",
        "RECOMMENDATION",
    )
    rows = [header] + [
        (
            s.name,
            s.source,
            s.via,
            s.declared,
            str(s.body_tokens),
            str(len(s.shell_injections)),
            f"{s.inline_tokens} (${s.inline_dollars:.4f})",
            f"{s.fork_tokens} (${s.fork_dollars:.4f})",
            "never" if s.break_even is None else f"{s.break_even} turns",
            s.verdict,
        )
        for s in report.skills
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    listing = report.listing
    budget = "no budget" if report.budget is None else f"budget {report.budget}"
    lines += [
        "",
        f"listing ({report.profile}, {budget}): {listing.chars} chars, "
        f"{listing.tokens_per_turn} tokens = ${listing.dollars_per_turn:.5f} per turn; "
        f"{listing.tokens_at_horizon} tokens = ${listing.dollars_at_horizon:.4f} "
        f"over {horizon} turns",
    ]
    injected = [(s.name, c) for s in report.skills for c in s.shell_injections]
    if injected:
        lines += ["", "shell injections (left as text, never executed):"]
        lines += [f"  {name}: !`{command}`" for name, command in injected]
    return "\n".join(lines)
