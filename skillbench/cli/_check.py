"""``skillbench check DIR --baseline BASELINE.json``: the CI regression gate."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from skillbench._errors import SkillbenchError
from skillbench.cli._common import EXIT_GATE_FAILED, EXIT_OK, add_quiet, env_default, warn

if TYPE_CHECKING:
    from skillbench.report import GateReport

HELP = "gate a run against a baseline (exit 100 on regression)"
DESCRIPTION = """\
Compare a run with a blessed baseline, cell by cell. A gated metric fails when
  - it is past an absolute threshold (--min-accuracy 0.8, --max-false-invocation-rate 0.1,
    --min/--max METRIC=X, or the baseline's own "thresholds"), or
  - it is worse than the baseline by more than --max-drop AND the one-sided exact paired
    McNemar test on the cell's requests says the drop is not noise (p < --alpha,
    Bonferroni-split over the cell × metric tests). A request's repeats count as one.
A drop past --max-drop that the test cannot tell from noise passes with a note, and the gate
warns when --max-drop is below the smallest drop the suite can detect. `skillbench compare
--fail-on-regression` applies the same rule through the same code.
Lower-is-better metrics (false_invocation_rate, unwanted_invocation_rate, miss_rate) fail
when they rise.

Exit codes: 0 every gated metric holds, 100 one failed, 1 error (missing or unfinished
run, bad baseline, cells or requests that differ from the baseline).

examples:
  skillbench check reports/ci --baseline reports/baselines/ci.json --junit junit.xml
  skillbench check reports/ci --baseline ci.json --min-accuracy 0.8 --max-drop 0.05
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


def add_threshold_arguments(parser: argparse.ArgumentParser) -> None:
    """Absolute thresholds, shared by ``check`` (to gate) and ``bless`` (to record)."""
    for flag, metric, what in (
        ("--min-accuracy", "accuracy", "floor"),
        ("--max-false-invocation-rate", "false_invocation_rate", "ceiling"),
    ):
        env = "SKILLBENCH_" + flag[2:].upper().replace("-", "_")
        parser.add_argument(
            flag,
            type=float,
            default=env_default(flag[2:]),
            metavar="X",
            help=f"absolute {what} on {metric} [env: {env}]",
        )
    for flag, what, example in (
        ("--min", "floor", "accuracy=0.8"),
        ("--max", "ceiling", "false_invocation_rate=0.1"),
    ):
        env = "SKILLBENCH_" + flag[2:].upper()
        parser.add_argument(
            flag,
            action="append",
            default=[env_default(flag[2:])] if env_default(flag[2:]) else [],
            metavar="METRIC=X",
            help=f"absolute {what} on any metric, e.g. {example} (repeatable, or comma-"
            f"separated) [env: {env}]",
        )


def thresholds_from_args(args: argparse.Namespace) -> tuple[dict[str, float], dict[str, float]]:
    """(floors, ceilings) per metric from the threshold flags."""
    minimum = _thresholds(args.min, "--min")
    maximum = _thresholds(args.max, "--max")
    if args.min_accuracy is not None:
        minimum["accuracy"] = args.min_accuracy
    if args.max_false_invocation_rate is not None:
        maximum["false_invocation_rate"] = args.max_false_invocation_rate
    return minimum, maximum


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
        default=env_default("metric", "accuracy,false_invocation_rate"),
        help="comma-separated metrics gated on a drop (default: accuracy,false_invocation_rate)"
        " [env: SKILLBENCH_METRIC]",
    )
    parser.add_argument(
        "--max-drop",
        type=float,
        default=env_default("max-drop", 0.02),
        help="tolerance: the largest worsening let through even when significant "
        "(default: 0.02) [env: SKILLBENCH_MAX_DROP]",
    )
    parser.add_argument(
        "--alpha",
        type=float,
        default=env_default("alpha", 0.05),
        help="family-wise significance level of the paired tests (default: 0.05) "
        "[env: SKILLBENCH_ALPHA]",
    )
    add_threshold_arguments(parser)
    parser.add_argument(
        "--junit",
        default=env_default("junit"),
        metavar="FILE",
        help="write JUnit XML (one testcase per cell and metric) [env: SKILLBENCH_JUNIT]",
    )
    add_quiet(parser)


def _print(report: GateReport, quiet: bool) -> None:
    for w in report.warnings():
        warn(w)
    for r in report.failed:
        print(f"FAIL {r.message}", file=sys.stderr)
    if quiet:
        return
    shared = f" ({report.alpha * report.tests:.3g} over {report.tests} tests)"
    shared = shared if report.tests > 1 else ""
    for c in report.coarsest:
        res = c.resolution
        if res.drop is not None:
            print(
                f"resolution: {c.metric} can tell a {c.change} of {res.drop:.3f} ({res.flips} of "
                f"{res.requests} requests worse, none better) from noise at α = "
                f"{report.alpha:.3g} per test{shared}"
            )
    for r in report.results:
        if r.status == "pass" and r.note:
            print(f"PASS {r.message}")
    passed = sum(r.status == "pass" for r in report.results)
    failed = len(report.failed)
    skipped = len(report.results) - passed - failed
    print(f"{passed} passed, {failed} failed, {skipped} skipped ({len(report.results)} checks)")


def run(args: argparse.Namespace) -> int:
    from skillbench.report import Thresholds, check_run, write_junit

    metrics = list(dict.fromkeys(m.strip() for m in args.metric.split(",") if m.strip()))
    if not metrics:
        raise SkillbenchError(f"--metric: no metric given in {args.metric!r}")
    minimum, maximum = thresholds_from_args(args)
    thresholds = Thresholds(
        metrics=metrics,
        max_drop=args.max_drop,
        minimum=minimum,
        maximum=maximum,
        alpha=args.alpha,
    )
    report = check_run(args.run_dir, args.baseline, thresholds)
    if args.junit:
        write_junit(report, args.junit)
    _print(report, args.quiet)
    return EXIT_GATE_FAILED if report.failed else EXIT_OK
