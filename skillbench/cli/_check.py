"""``skillbench check DIR --baseline BASELINE.json``: the CI regression gate."""

from __future__ import annotations

import argparse
import sys

from skillbench._errors import SkillbenchError
from skillbench.cli._common import EXIT_GATE_FAILED, EXIT_OK, add_quiet, env_default

HELP = "gate a run against a baseline (exit 100 on regression)"
DESCRIPTION = """\
Compare a run with a blessed baseline, cell by cell. A gated metric fails when
  - it is past an absolute threshold (--min accuracy=0.8, --max false_invocation_rate=0.1),
  - it is worse than the baseline by more than --max-drop (point estimates), or
  - it is significantly worse: exact paired McNemar test on the requests (Newcombe interval
    from the kept counts when requests differ), Bonferroni-corrected over all cell × metric
    tests at --alpha.
Lower-is-better metrics (false_invocation_rate, unwanted_invocation_rate, miss_rate) fail
when they rise.

Exit codes: 0 every gated metric holds, 100 one failed, 1 error (missing files,
cells that differ from the baseline).

examples:
  skillbench check reports/ci --baseline ci/baseline.json --min accuracy=0.8 --junit junit.xml
"""


def _thresholds(items: list[str], flag: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for item in items:
        for part in item.split(","):
            name, sep, value = part.partition("=")
            try:
                out[name.strip()] = float(value)
            except ValueError:
                sep = ""
            if not sep:
                raise SkillbenchError(f"{flag}: expected metric=number, got {part!r}")
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="DIR", help="run directory to check")
    parser.add_argument(
        "--baseline",
        required=env_default("baseline") is None,
        default=env_default("baseline"),
        metavar="BASELINE.json",
        help="file written by `skillbench bless` [env: SKILLBENCH_BASELINE]",
    )
    parser.add_argument(
        "--metric",
        default="accuracy,false_invocation_rate",
        help="comma-separated metrics to gate (default: accuracy,false_invocation_rate)",
    )
    parser.add_argument(
        "--max-drop",
        type=float,
        default=0.02,
        help="largest tolerated worsening vs the baseline (default: 0.02)",
    )
    parser.add_argument(
        "--min",
        action="append",
        default=[],
        metavar="METRIC=X",
        help="absolute floor, e.g. accuracy=0.8 (repeatable)",
    )
    parser.add_argument(
        "--max",
        action="append",
        default=[],
        metavar="METRIC=X",
        help="absolute ceiling, e.g. false_invocation_rate=0.1 (repeatable)",
    )
    parser.add_argument(
        "--alpha", type=float, default=0.05, help="family-wise significance level (default: 0.05)"
    )
    parser.add_argument(
        "--junit", metavar="FILE", help="write JUnit XML (one testcase per cell and metric)"
    )
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.report import Thresholds, check_run, write_junit

    metrics = [m.strip() for m in args.metric.split(",") if m.strip()]
    if not metrics:
        raise SkillbenchError(f"--metric: no metric given in {args.metric!r}")
    thresholds = Thresholds(
        metrics=metrics,
        max_drop=args.max_drop,
        minimum=_thresholds(args.min, "--min"),
        maximum=_thresholds(args.max, "--max"),
        alpha=args.alpha,
    )
    results = check_run(args.run_dir, args.baseline, thresholds)
    if args.junit:
        write_junit(results, args.junit)
    failed = [r for r in results if r.status == "fail"]
    for r in failed:
        print(f"FAIL {r.message}", file=sys.stderr)
    if not args.quiet:
        passed = sum(r.status == "pass" for r in results)
        print(
            f"{passed} passed, {len(failed)} failed, {len(results) - passed - len(failed)} "
            f"skipped ({len(results)} checks)"
        )
    return EXIT_GATE_FAILED if failed else EXIT_OK
