"""``skillbench compare A B``: paired comparison on the same requests."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from skillbench.cli._common import (
    EXIT_GATE_FAILED,
    EXIT_OK,
    add_format,
    add_output,
    env_default,
    env_flag,
)

HELP = "paired comparison of two runs or two sets of cells (McNemar, paired bootstrap)"
DESCRIPTION = """\
Compare B against A on the same requests: exact McNemar test on the requests that flipped
(two-sided, and one-sided "is B worse?"; a request's repeats count as one), a paired
bootstrap 95% interval for the difference (requests resampled, repeats kept together),
per-skill differences and the flipped requests. B regressed when it is worse by more than
--max-drop and the one-sided p is below --alpha: the rule `skillbench check` gates on.

A side is a run directory, optionally followed by '::' and cell filters:
  reports/sweep                               every cell of the run
  reports/sweep::catalog=rewrite              only cells whose catalog is 'rewrite'
  reports/sweep::catalog=base,budget=4000     several filters (all must hold)
Filter keys: catalog, profile, budget, ordering, half_life, selector ('none' matches a null
budget). --cell-a/--cell-b add filters the same way. When both sides are one cell they are
paired directly; otherwise cells are paired on the key fields no filter names (e.g. compare
catalog=base with catalog=rewrite at every budget).

examples:
  skillbench compare runs/main runs/pr                           two runs, cell by cell
  skillbench compare runs/x::catalog=base runs/x::catalog=rewrite  two catalogs, one run
  skillbench compare runs/x runs/x --cell-a budget=2000 --cell-b budget=4000
  skillbench compare runs/main runs/pr --format json --fail-on-regression

Exit codes: 0 ok, 1 error (missing or unfinished runs, unpaired requests), 100 B regressed
with --fail-on-regression.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="baseline side: DIR or DIR::key=value,...")
    parser.add_argument("b", metavar="B", help="candidate side: DIR or DIR::key=value,...")
    parser.add_argument("--cell-a", metavar="K=V,...", help="extra cell filters for A")
    parser.add_argument("--cell-b", metavar="K=V,...", help="extra cell filters for B")
    parser.add_argument(
        "--metric",
        default=env_default("metric", "accuracy"),
        help="per-decision metric to compare (default: accuracy) [env: SKILLBENCH_METRIC]",
    )
    parser.add_argument(
        "--alpha",
        type=float,
        default=env_default("alpha", 0.05),
        help="significance level, shared by all cell pairs (default: 0.05) [env: SKILLBENCH_ALPHA]",
    )
    parser.add_argument(
        "--max-drop",
        type=float,
        default=env_default("max-drop", 0.02),
        help="tolerance of the regression rule (default: 0.02) [env: SKILLBENCH_MAX_DROP]",
    )
    parser.add_argument(
        "--resamples",
        type=int,
        default=env_default("resamples", 10_000),
        help="bootstrap resamples (default: 10000) [env: SKILLBENCH_RESAMPLES]",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=env_default("seed", 0),
        help="bootstrap seed (default: 0) [env: SKILLBENCH_SEED]",
    )
    parser.add_argument(
        "--fail-on-regression",
        action="store_true",
        default=env_flag("fail-on-regression"),
        help="exit 100 when B regressed (see above) [env: SKILLBENCH_FAIL_ON_REGRESSION]",
    )
    add_format(parser, ["md", "html", "json"], "md")
    add_output(parser, "file to write (default: stdout)")


def run(args: argparse.Namespace) -> int:
    from skillbench.report import (
        build_comparison,
        compare_runs,
        parse_selection,
        to_html,
        to_markdown,
    )

    a = parse_selection(args.a, args.cell_a, "A")
    b = parse_selection(args.b, args.cell_b, "B")
    cmp = compare_runs(
        a,
        b,
        metric=args.metric,
        alpha=args.alpha,
        max_drop=args.max_drop,
        resamples=args.resamples,
        seed=args.seed,
    )
    if args.format == "json":
        text = json.dumps(cmp.to_json(), indent=1) + "\n"
    elif args.format == "html":
        text = to_html(build_comparison(cmp))
    else:
        text = to_markdown(build_comparison(cmp), image_dir=None)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return EXIT_GATE_FAILED if args.fail_on_regression and cmp.regression else EXIT_OK
