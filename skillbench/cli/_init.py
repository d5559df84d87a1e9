"""``skillbench init``: scaffold a skill's trigger eval set where ``eval`` finds it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_OK,
    add_endpoint,
    add_quiet,
    env_default,
    positive_int,
)

HELP = "scaffold a skill's trigger eval set (evals/trigger-evals.json) for `eval`"
DESCRIPTION = """\
Write SKILL/evals/trigger-evals.json in skill-creator's list shape, each query with an
"origin" saying where it came from, for a person to edit (the Agent Skills guide asks for
8-10 queries of each label, realistic and specific):

  offline (default): should-trigger queries from the sentences of the skill's description
  and when_to_use (usually one to three: write more); near-miss should-not queries from
  the same parts of the --rivals sibling skills nearest to it (packaged MiniLM embeddings
  of the listing entries).
  --model M: `synth` has the model write positives from the description and near-misses
  against the nearest rivals (cached, retried, --max-cost-usd capped).

The skill's siblings are the other skills of its parent folder, or --catalog.

exit codes: 0 written, 1 error (an existing set is kept unless --force).

examples:
  skillbench init skills/pdf-extract
  skillbench init skills/pdf-extract --model openai/gpt-4o-mini --max-cost-usd 0.05
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("skill_dir", metavar="SKILL", help="the skill's folder (holds SKILL.md)")
    parser.add_argument(
        "--catalog",
        action="append",
        default=[],
        metavar="SOURCE",
        help="where its siblings are (repeatable; default: the skill's parent folder)",
    )
    parser.add_argument(
        "--positives", type=positive_int, default=10, help="most should-trigger queries (10)"
    )
    parser.add_argument(
        "--negatives", type=positive_int, default=10, help="most near-miss queries (10)"
    )
    parser.add_argument("--rivals", type=positive_int, default=3, help="nearest siblings used (3)")
    parser.add_argument(
        "--model",
        default=env_default("model"),
        help="litellm model for synth [env: SKILLBENCH_MODEL]",
    )
    add_endpoint(parser)
    parser.add_argument("--force", action="store_true", help="replace an existing scaffold")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.authoring import find_targets, resolve_skills
    from skillbench.authoring._scaffold import (
        ScaffoldOptions,
        nearest_siblings,
        offline_queries,
        synth_queries,
    )
    from skillbench.cache import default_cache_root
    from skillbench.evalsets import write_trigger_set
    from skillbench.selectors import DEFAULT_MODEL, Embedder
    from skillbench.transcripts import SynthOptions

    if not (Path(args.skill_dir) / "SKILL.md").is_file():
        raise SkillbenchError(f"{args.skill_dir}: no SKILL.md here; give a skill's folder")
    (resolved,) = resolve_skills(find_targets([args.skill_dir], args.catalog), "codebot")
    skill, catalog = resolved.skill, resolved.catalog.model_invocable
    embedder = Embedder.shared(DEFAULT_MODEL, default_cache_root())
    problems: list[str] = []
    if args.model:
        options = SynthOptions(
            model=args.model,
            cache_dir=default_cache_root(),
            api_base=args.api_base,
            api_key_env=args.api_key_env,
            per_kind=max(1, args.positives // 3),
            near_misses=args.negatives,
            rivals=args.rivals,
            max_cost_usd=None if args.max_cost_usd is None else float(args.max_cost_usd),
        )
        queries, problems = synth_queries(skill, catalog, options, embedder)
    else:
        options_offline = ScaffoldOptions(args.positives, args.negatives, args.rivals)
        rivals = nearest_siblings(skill, catalog, embedder.embed, args.rivals)
        queries = offline_queries(skill, rivals, options_offline)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if not queries:
        raise SkillbenchError(f"no query could be drafted for {skill.name!r}")
    try:
        path = write_trigger_set(resolved.target.skill_dir, queries, force=args.force)
    except FileExistsError as exc:
        raise SkillbenchError(f"{exc}: a set is already there; edit it, or --force") from None
    should = sum(q.should_trigger for q in queries)
    if not args.quiet:
        print(
            f"wrote {path}: {should} should-trigger and {len(queries) - should} near-miss "
            f"queries; edit them (8-10 of each, realistic wording), then "
            f"`skillbench eval {args.skill_dir}`",
            file=sys.stderr,
        )
    return EXIT_ERROR if problems else EXIT_OK
