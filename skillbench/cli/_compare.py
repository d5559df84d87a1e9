"""``skillbench compare A B``: paired comparison on the same requests."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.cli._common import (
    EXIT_GATE_FAILED,
    EXIT_OK,
    add_output,
    env_default,
    env_flag,
)

HELP = (
    "paired comparison of two runs or two sets of cells (McNemar, paired bootstrap); "
    "--proxy: does an offline selector rank configurations like the model?"
)
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

--proxy OFFLINE LIVE: before trusting a sweep run with an offline selector, check it against
a run of the same grid with the real model (a litellm or agent selector). For each
configuration (the cell less its selector: budget, ordering, profile …) it scores both
sides on the same requests and reports Spearman's ρ and Kendall's τ-b of the two rankings
with request-bootstrap intervals, whether the best configuration agrees (or is within
noise), how many configuration pairs the proxy orders like the model (pairs within noise
on the model apart), how often both made the same decision, and a verdict: yes, no or not
enough data (the rule is printed with it). Grids, request sets or labels that differ are
refused. Each side picks its one non-baseline selector (OFFLINE the offline one, LIVE the
model, so one run holding both works as both sides); else name it with ::selector=NAME.

  skillbench compare --proxy reports/sweep reports/sweep-live
  skillbench compare --proxy runs/x::selector=lexical runs/x::selector=gpt --format json

Exit codes: 0 ok, 1 error (missing or unfinished runs, unpaired requests or grids), 100 B
regressed with --fail-on-regression, or with --proxy --require-agreement a verdict other than
yes.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "a", metavar="A", help="baseline side (with --proxy: the offline run): DIR or DIR::k=v,..."
    )
    parser.add_argument(
        "b", metavar="B", help="candidate side (with --proxy: the model run): DIR or DIR::k=v,..."
    )
    parser.add_argument(
        "--proxy",
        action="store_true",
        default=env_flag("proxy"),
        help="A is a proxy (offline selector), B the real model on the same grid: how well "
        "does A's ranking of configurations predict B's? [env: SKILLBENCH_PROXY]",
    )
    parser.add_argument(
        "--min-rho",
        type=float,
        default=env_default("min-rho"),
        help="--proxy: the lower end of Spearman's interval must reach this for a yes "
        "(default: 0.5) [env: SKILLBENCH_MIN_RHO]",
    )
    parser.add_argument(
        "--require-agreement",
        action="store_true",
        default=env_flag("require-agreement"),
        help="--proxy: exit 100 unless the verdict is yes [env: SKILLBENCH_REQUIRE_AGREEMENT]",
    )
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
        help="significance level, shared by all cell pairs; --proxy: intervals at 1 - alpha "
        "(default: 0.05) [env: SKILLBENCH_ALPHA]",
    )
    parser.add_argument(
        "--max-drop",
        type=float,
        default=env_default("max-drop"),
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
    parser.add_argument(
        "--format",
        choices=["md", "html", "json", "text"],
        default=env_default("format"),
        help="output format (default: md; with --proxy: text) [env: SKILLBENCH_FORMAT]",
    )
    add_output(parser, "file to write (default: stdout)")


def _write(text: str, output: str | None) -> None:
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        print(text, end="")


def _proxy(args: argparse.Namespace) -> int:
    from skillbench.report import (
        DEFAULT_MIN_RHO,
        build_proxy_check,
        check_proxy,
        parse_selection,
        to_html,
        to_markdown,
        to_text,
    )

    if args.fail_on_regression or args.max_drop is not None:
        flag = "--fail-on-regression" if args.fail_on_regression else "--max-drop"
        raise SkillbenchError(f"{flag} does not apply to --proxy (see --require-agreement)")
    check = check_proxy(
        parse_selection(args.a, args.cell_a, "OFFLINE"),
        parse_selection(args.b, args.cell_b, "LIVE"),
        metric=args.metric,
        alpha=args.alpha,
        min_rho=DEFAULT_MIN_RHO if args.min_rho is None else float(args.min_rho),
        resamples=args.resamples,
        seed=args.seed,
    )
    fmt = args.format or "text"
    if fmt == "json":
        text = json.dumps(check.to_json(), indent=1) + "\n"
    elif fmt == "html":
        text = to_html(build_proxy_check(check))
    elif fmt == "md":
        text = to_markdown(build_proxy_check(check), image_dir=None)
    else:
        text = to_text(build_proxy_check(check))
    _write(text, args.output)
    return EXIT_GATE_FAILED if args.require_agreement and check.answer != "yes" else EXIT_OK


def run(args: argparse.Namespace) -> int:
    if args.proxy:
        return _proxy(args)
    if args.require_agreement:
        raise SkillbenchError("--require-agreement applies to --proxy only")
    if args.format == "text":
        raise SkillbenchError("--format text is for --proxy; compare A B writes md, html or json")
    from skillbench.report import (
        DEFAULT_MAX_DROP,
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
        max_drop=DEFAULT_MAX_DROP if args.max_drop is None else float(args.max_drop),
        resamples=args.resamples,
        seed=args.seed,
    )
    if args.format == "json":
        text = json.dumps(cmp.to_json(), indent=1) + "\n"
    elif args.format == "html":
        text = to_html(build_comparison(cmp))
    else:
        text = to_markdown(build_comparison(cmp), image_dir=None)
    _write(text, args.output)
    return EXIT_GATE_FAILED if args.fail_on_regression and cmp.regression else EXIT_OK
