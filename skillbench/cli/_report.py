"""``skillbench report DIR``: markdown, self-contained HTML and CSVs for a run."""

from __future__ import annotations

import argparse

from skillbench._errors import SkillbenchError
from skillbench.cli._common import EXIT_OK, add_output, add_quiet, env_default

HELP = "write report.md, report.html and CSVs for a run directory"
DESCRIPTION = """\
Write the report of a run directory (also done at the end of `skillbench run`):
  report.md + plots/*.png    summary table with 95% intervals, plots, "What to do"
  report.html                the same, self-contained (plots embedded; opens from disk)
  summary.csv, decisions.csv one row per cell; one row per decision

examples:
  skillbench report reports/budget-sweep --format html -o /tmp/sweep-report
  skillbench report reports/quickstart --objective false_invocation_rate
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="DIR", help="run directory (holds summary.json)")
    parser.add_argument(
        "--format",
        default=env_default("format", "md,html,csv"),
        help="comma-separated formats among md, html, csv (default: all) [env: SKILLBENCH_FORMAT]",
    )
    parser.add_argument(
        "--objective",
        default=env_default("objective", "accuracy"),
        help="per-decision metric the headline ranks cells on (default: accuracy) "
        "[env: SKILLBENCH_OBJECTIVE]",
    )
    add_output(parser, "directory to write into (default: DIR)")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.report import write_report

    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    if not formats:
        raise SkillbenchError(f"--format: no report format given in {args.format!r}")
    written = write_report(args.run_dir, formats, output=args.output, objective=args.objective)
    if not args.quiet:
        for path in written:
            if path.suffix != ".png":
                print(path)
    return EXIT_OK
