"""``skillbench eval``: zero-config trigger evals of skills, from the authors' own sets."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_GATE_FAILED,
    EXIT_OK,
    add_endpoint,
    add_format,
    add_output,
    add_profile_and_budget,
    add_quiet,
    env_default,
    positive_int,
)
from skillbench.listing import PROFILES
from skillbench.types import JsonObject

if TYPE_CHECKING:
    from skillbench.authoring import ChangedSelection, Target, WithSets
    from skillbench.replay import SelectorConfig


def description() -> str:
    """The help text, its example naming the first default agent."""
    from skillbench.agentspec import default_agents

    return DESCRIPTION.format(agent=default_agents()[0].name)


OFFLINE_SELECTORS = ("embedding", "lexical", "hybrid", "oracle", "random", "never")

HELP = "score skills on their own trigger eval sets (evals/*.json), with no config"
DESCRIPTION = """\
For each SKILL (a skill folder, one of its eval files, or a folder of skill folders) read
its trigger eval set: every JSON file of SKILL/evals/ (or the file given), in skill-creator's
shapes [{{"query": ..., "should_trigger": true}}, ...] or {{"evals": [{{"prompt": ...,
"should_trigger": false}}, ...]}}; output evals (expected_output) are counted and skipped.
Each query is replayed --repeats times with the whole catalog (the skill's sibling folders,
or --catalog) listed around the skill as the --profile renders it, and passes when the skill
fired in at least half the runs (should trigger) or in under half (should not; another skill
firing is not this skill's failure unless the query says "none_should_trigger": true).

Per skill: pass rates on should-trigger and should-not queries with Wilson 95% intervals,
the failing queries, and the pass rate on the validation split (skill-creator's: 40% of each
label held out, seed 42) when both labels have two queries or more.

--changed BASE_REF scores only the skills with files changed since BASE_REF (git diff
BASE_REF...HEAD plus uncommitted and untracked files) and their --lookalikes nearest
skills (overlap's ranking); with GITHUB_STEP_SUMMARY set (or --summary) the Markdown
scorecard is appended there, and --format github prints annotations on failing queries.

Selectors: offline ones run without a key (default: embedding, the packaged MiniLM);
--model sends each query to a litellm model (cached, retried, --max-cost-usd capped).

exit codes: 0 done, 100 a skill's pass rate is under --min-pass-rate, 1 error or a
replay that did not finish (the scorecard of what finished is still printed).

examples:
  skillbench eval skills/pdf-extract
  skillbench eval skills/ --profile {agent} --min-pass-rate 0.8
  skillbench eval skills/ --changed origin/main --format github --min-pass-rate 0.8
  skillbench eval skills/pdf-extract --model openai/gpt-4o-mini --max-cost-usd 0.50
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="+", metavar="SKILL", help="skill folder, eval file, or folder of skills"
    )
    parser.add_argument(
        "--catalog",
        action="append",
        default=[],
        metavar="SOURCE",
        help="catalog sources to list the skills among (repeatable; default: each skill's "
        "parent folder)",
    )
    add_profile_and_budget(parser, PROFILES.names(), "loading rules and listing format")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument(
        "--selector",
        choices=OFFLINE_SELECTORS,
        default=env_default("selector", "embedding"),
        help="offline selector (default: embedding) [env: SKILLBENCH_SELECTOR]",
    )
    choice.add_argument(
        "--model", default=env_default("model"), help="litellm model [env: SKILLBENCH_MODEL]"
    )
    add_endpoint(parser)
    parser.add_argument(
        "--repeats",
        type=positive_int,
        default=env_default("repeats", 3),
        help="runs per query (default: 3) [env: SKILLBENCH_REPEATS]",
    )
    parser.add_argument(
        "--holdout",
        type=float,
        default=0.4,
        help="share of each label in the validation split (default: 0.4; 0: no split)",
    )
    parser.add_argument(
        "--min-pass-rate",
        type=float,
        default=env_default("min-pass-rate"),
        metavar="X",
        help="gate: exit 100 when a skill passes fewer than this share of its queries "
        "[env: SKILLBENCH_MIN_PASS_RATE]",
    )
    parser.add_argument(
        "--changed",
        default=env_default("changed"),
        metavar="BASE_REF",
        help="score only skills changed since BASE_REF and their look-alikes "
        "[env: SKILLBENCH_CHANGED]",
    )
    parser.add_argument(
        "--lookalikes",
        type=int,
        default=2,
        metavar="N",
        help="with --changed: nearest skills added per changed skill (default: 2)",
    )
    parser.add_argument(
        "--summary",
        default=os.environ.get("GITHUB_STEP_SUMMARY"),
        metavar="FILE",
        help="append the Markdown scorecard to FILE (default: $GITHUB_STEP_SUMMARY)",
    )
    parser.add_argument(
        "-j",
        "--max-concurrency",
        type=positive_int,
        default=env_default("max_concurrency", 8),
        help="concurrent model calls (8) [env: SKILLBENCH_MAX_CONCURRENCY]",
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="list every query, not only the failing"
    )
    parser.add_argument(
        "--allow-failed-controls",
        action="store_true",
        help="with --model: complete even when the model fails its positive controls "
        "(requests naming a listed skill outright)",
    )
    add_output(parser, "keep the replay's run directories here (default: a temporary folder)")
    add_format(parser, ["text", "json", "github"], "text")
    add_quiet(parser)


def selector_entry(args: argparse.Namespace) -> SelectorConfig:
    """The selector's config entry from ``--selector`` or ``--model`` and its options."""
    from skillbench.replay import SelectorConfig

    if not args.model:
        return SelectorConfig(type=args.selector)
    entry: JsonObject = {"type": "litellm", "model": args.model}
    for key in ("api_base", "api_key_env"):
        if getattr(args, key):
            entry[key] = getattr(args, key)
    if args.max_cost_usd is not None:
        entry["max_cost_usd"] = float(args.max_cost_usd)
    return SelectorConfig.model_validate(entry)


def _pick(
    args: argparse.Namespace, targets: list[Target]
) -> tuple[WithSets, ChangedSelection | None]:
    from skillbench.authoring import changed_files, pick_changed, resolve_skills, with_sets
    from skillbench.cache import default_cache_root
    from skillbench.selectors import DEFAULT_MODEL, Embedder

    resolved = resolve_skills(targets, args.profile)
    if not args.changed:
        return with_sets(resolved), None
    embed = Embedder.shared(DEFAULT_MODEL, default_cache_root()).embed
    picked = pick_changed(
        resolved,
        changed_files(args.changed, Path.cwd()),
        args.changed,
        per_skill=max(args.lookalikes, 0),
        embed=embed,
    )
    return with_sets(picked.skills), picked.selection


def run(args: argparse.Namespace) -> int:
    from skillbench.authoring import (
        EvalOptions,
        evaluate,
        find_targets,
        github_annotations,
        markdown_scorecard,
        text_scorecard,
    )

    sets, selection = _pick(args, find_targets(args.paths, args.catalog))
    options = EvalOptions(
        profile=args.profile,
        selector=selector_entry(args),
        repeats=int(args.repeats),
        budget=None if args.budget is None else int(args.budget),
        holdout=args.holdout,
        min_pass_rate=None if args.min_pass_rate is None else float(args.min_pass_rate),
        max_concurrency=int(args.max_concurrency),
        allow_failed_controls=args.allow_failed_controls,
    )
    if args.output:
        report = evaluate(sets.loaded, options, Path(args.output), selection, sets.without_set)
    else:
        with tempfile.TemporaryDirectory(prefix="skillbench-eval-") as work:
            report = evaluate(sets.loaded, options, Path(work), selection, sets.without_set)
    if args.summary:
        with open(args.summary, "a", encoding="utf-8") as fh:
            fh.write(markdown_scorecard(report))
    if args.format == "json":
        print(report.model_dump_json(indent=2))
    elif args.format == "github":
        annotations = github_annotations(report)
        if annotations:
            print(annotations)
        print(text_scorecard(report, args.verbose), file=sys.stderr)
    else:
        print(text_scorecard(report, args.verbose))
    if report.status != "complete":
        return EXIT_ERROR
    return EXIT_GATE_FAILED if report.gate_failed else EXIT_OK
