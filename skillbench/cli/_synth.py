"""``skillbench synth``: labelled requests written by a model from the skills themselves."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_OK,
    add_output,
    add_quiet,
    add_sources,
    env_default,
    positive_int,
)

HELP = "write labelled requests (positives, near-miss negatives) from the skills with a model"
DESCRIPTION = """\
For each skill a litellm model writes requests a user would type: positives tagged normal,
boundary and abnormal (from the name and description only: the body stays hidden, so
requests do not copy it), and near-miss negatives from the skill and its nearest rivals by
embedding similarity, tagged near-miss, that no listed skill should take. Near-identical
requests are dropped (embedding similarity >= --dedupe). Written to -o DIR as review.csv
(edit it, then use it as a config's `requests:`) and dropped.csv.

Responses are cached like `run`'s (a re-run sends nothing new), retried on 429/5xx, and
stopped at --max-cost-usd; --dry-run prints the calls and their estimated cost.

examples:
  skillbench synth ./skills --model openai/gpt-4o-mini --dry-run
  skillbench synth ./skills --model ollama/llama3.1 --api-base http://localhost:11434 -o synth
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_sources(parser)
    parser.add_argument(
        "--model", default=env_default("model"), help="litellm model [env: SKILLBENCH_MODEL]"
    )
    parser.add_argument("--api-base", default=env_default("api-base"), help="endpoint URL")
    parser.add_argument(
        "--api-key-env", default=env_default("api-key-env"), help="variable holding the API key"
    )
    add_output(parser, "output directory (default: synth)")
    parser.add_argument(
        "--per-kind", type=positive_int, default=2, help="positives per kind and skill (2)"
    )
    parser.add_argument(
        "--near-misses", type=positive_int, default=3, help="near-misses per skill (3)"
    )
    parser.add_argument("--rivals", type=positive_int, default=2, help="rivals per skill (2)")
    parser.add_argument(
        "--dedupe", type=float, default=0.92, help="near-duplicate similarity (0.92)"
    )
    parser.add_argument("--temperature", type=float, default=0.7, help="sampling temperature")
    parser.add_argument("--seed", type=int, default=0, help="sampling seed sent to the model")
    parser.add_argument(
        "--max-cost-usd",
        type=float,
        default=env_default("max-cost-usd"),
        help="stop sending calls once this much is spent [env: SKILLBENCH_MAX_COST_USD]",
    )
    parser.add_argument("--max-attempts", type=positive_int, default=5, help="tries per call")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per call")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write cache")
    parser.add_argument(
        "-j",
        "--max-concurrency",
        type=positive_int,
        default=env_default("max-concurrency", "8"),
        help="concurrent calls (default 8) [env: SKILLBENCH_MAX_CONCURRENCY]",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the plan, send nothing")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench._errors import SkillbenchError
    from skillbench.cache import default_cache_root
    from skillbench.catalog import load_catalog
    from skillbench.selectors import DEFAULT_MODEL, Embedder
    from skillbench.transcripts import SynthOptions, estimate, plan, synthesize, write_review

    if not args.model:
        raise SkillbenchError("--model is required (or set SKILLBENCH_MODEL)")
    if not 0.0 < args.dedupe <= 1.0:
        raise SkillbenchError(f"--dedupe must be within (0, 1], got {args.dedupe}")
    catalog = load_catalog(args.sources)
    if not catalog.skills:
        raise SkillbenchError("no skills in the given sources")
    cache_dir = default_cache_root()
    options = SynthOptions(
        model=args.model,
        cache_dir=cache_dir,
        api_base=args.api_base,
        api_key_env=args.api_key_env,
        per_kind=args.per_kind,
        near_misses=args.near_misses,
        rivals=args.rivals,
        dedupe=args.dedupe,
        params={"temperature": args.temperature, "seed": args.seed},
        max_cost_usd=None if args.max_cost_usd is None else float(args.max_cost_usd),
        max_attempts=args.max_attempts,
        timeout=args.timeout,
        max_concurrency=int(args.max_concurrency),
        cache=not args.no_cache,
    )
    embedder = Embedder.shared(DEFAULT_MODEL, cache_dir)
    jobs = plan(catalog.skills, options, embedder)
    if args.dry_run:
        print(json.dumps(estimate(jobs, options)._asdict(), indent=2))
        return EXIT_OK
    result = synthesize(jobs, options, embedder)
    out = Path(args.output or "synth")
    review = write_review(result, out)
    for error in result.errors:
        print(f"error: {error}", file=sys.stderr)
    if not args.quiet:
        print(
            f"{len(result.requests)} requests ({len(result.dropped)} near-duplicates dropped) "
            f"from {len(catalog.skills)} skills, {result.spend.calls} calls "
            f"(${result.spend.cost_usd:.4f}), {result.cached} cached → {review}",
            file=sys.stderr,
        )
    if result.stopped:
        print(f"stopped: {result.stopped}; a re-run continues from the cache", file=sys.stderr)
    return EXIT_ERROR if result.errors or result.stopped else EXIT_OK
