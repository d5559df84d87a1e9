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

On an import's folder (`skillbench import … -o DIR`) it writes classes.md and classes.csv:
per skill, how many of the turns that expected it fell in each class (invoked by the user or
the model, listed in full but not invoked, listed cut, not listed, listing unknown) and the
skills never listed in full.

With --labels FILE the run is scored again under those label overrides (each decision keeps
its choice; outcomes follow from the new labels and the listings shown) into a copy of the run
(-o, default DIR/relabelled), and that copy is reported.

examples:
  skillbench report reports/budget-sweep --format html -o /tmp/sweep-report
  skillbench report reports/quickstart --objective false_invocation_rate
  skillbench report reports/quickstart --labels labels.jsonl
  skillbench report mine                                  (an import: classes.md, classes.csv)
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
    add_output(parser, "directory to write into (default: DIR; DIR/relabelled with --labels)")
    parser.add_argument(
        "--labels",
        metavar="FILE",
        default=env_default("labels"),
        help="score the run's decisions again under these label overrides (JSONL of "
        "{id, expected}, as the viewer exports them) and report that copy of the run "
        "[env: SKILLBENCH_LABELS]",
    )
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.report import write_report

    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    if not formats:
        raise SkillbenchError(f"--format: no report format given in {args.format!r}")
    run_dir, output = args.run_dir, args.output
    from skillbench.transcripts import is_import

    if is_import(run_dir):
        return _import_report(args, formats)
    if args.labels:
        from pathlib import Path

        from skillbench.replay import relabel_run

        target = Path(output) if output else Path(run_dir) / "relabelled"
        done = relabel_run(run_dir, args.labels, target)
        if not args.quiet:
            print(
                f"{done.decisions} decision(s) relabelled, {done.changed} changed outcome "
                f"→ {done.run_dir}"
            )
        run_dir, output = done.run_dir, None
    written = write_report(run_dir, formats, output=output, objective=args.objective)
    if not args.quiet:
        for path in written:
            if path.suffix != ".png":
                print(path)
    return EXIT_OK


def _import_report(args: argparse.Namespace, formats: list[str]) -> int:
    """The per-skill class table of an import's folder (``--labels`` belongs to the import)."""
    from skillbench.transcripts import write_class_report

    if args.labels:
        raise SkillbenchError(
            f"--labels: {args.run_dir} is an import; relabel with `skillbench import … --labels`"
        )
    for path in write_class_report(args.run_dir, formats, args.output):
        if not args.quiet:
            print(path)
    return EXIT_OK
