"""``skillbench bless DIR BASELINE.json``: freeze a run as the CI baseline."""

from __future__ import annotations

import argparse

from skillbench.cli._common import EXIT_OK, add_quiet

HELP = "write a CI baseline (metrics, intervals, per-request outcomes) from a run"
DESCRIPTION = """\
Write BASELINE.json from a run directory: every cell's metrics with their 95% intervals and
denominators, plus per-request outcomes so `skillbench check` can run a paired test.
Check the file in; re-bless when a change is meant to move the numbers.

examples:
  skillbench bless reports/ci ci/baseline.json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="DIR", help="run directory (holds summary.json)")
    parser.add_argument("baseline", metavar="BASELINE.json", help="baseline file to write")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.report import bless_run

    path = bless_run(args.run_dir, args.baseline)
    if not args.quiet:
        print(f"baseline written to {path}")
    return EXIT_OK
