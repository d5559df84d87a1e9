"""``skillbench bless DIR BASELINE.json``: freeze a run as the CI baseline."""

from __future__ import annotations

import argparse

from skillbench.cli._check import add_threshold_arguments, thresholds_from_args
from skillbench.cli._common import EXIT_OK, add_quiet

HELP = "write a CI baseline (metrics, per-request outcomes, optional thresholds) from a run"
DESCRIPTION = """\
Write BASELINE.json from a run directory: every cell's metrics with their 95% intervals and
denominators, plus per-request outcomes so `skillbench check` can run a paired test.
Threshold flags are recorded in the file ("thresholds") and enforced by every later
`check` (a flag given to `check` overrides the recorded value for that metric).
Check the file in; re-bless when a change is meant to move the numbers.

examples:
  skillbench bless reports/ci reports/baselines/ci.json
  skillbench bless reports/ci ci.json --min-accuracy 0.45 --max false_invocation_rate=0.4
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="DIR", help="run directory (holds summary.json)")
    parser.add_argument("baseline", metavar="BASELINE.json", help="baseline file to write")
    add_threshold_arguments(parser)
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.report import bless_run

    minimum, maximum = thresholds_from_args(args)
    path = bless_run(args.run_dir, args.baseline, minimum=minimum, maximum=maximum)
    if not args.quiet:
        print(f"baseline written to {path}")
    return EXIT_OK
