"""Entry point: builds the subcommand parser from small per-command modules.

Each subcommand lives in ``skillbench/cli/_<name>.py`` and exposes ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``. Those modules import heavy
libraries (torch, litellm, pandas, matplotlib) only inside ``run`` so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import select
import sys
from collections.abc import Sequence
from typing import TextIO

from skillbench import __version__
from skillbench._errors import SkillbenchError
from skillbench.cli._common import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK

SUBCOMMANDS = (
    "run",
    "render",
    "catalog",
    "report",
    "view",
    "compare",
    "bless",
    "check",
    "cost",
    "cache",
    "doctor",
    "schema",
    "lint",
    "overlap",
    "plan",
    "tune",
    "import",
    "fidelity",
    "capture",
    "agents",
    "synth",
    "eval",
    "init",
    "completion",
)

DESCRIPTION = """\
Measure how well agents select skills from budgeted listings.

Typical flow:
  skillbench catalog project=datasets/devtools/skills/project   what loads, what overrides what
  skillbench render  project=datasets/devtools/skills/project   exactly what the model sees
  skillbench run     configs/quickstart.yaml                   replay labelled requests over a grid
  skillbench report  reports/quickstart                        markdown/HTML/CSV report
  skillbench compare RUN_A RUN_B                               paired comparison (McNemar)
  skillbench check   RUN --baseline base.json                  CI gate (exit 100 on regression)

Exit codes: 0 ok, 1 error, 100 gate failed.
"""

VERSION = f"skillbench {__version__} (skill-selection benchmark: budgeted agent listings)"
"""What ``--version`` prints: names this project apart from the unrelated PyPI projects whose
command is also ``skillbench``."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skillbench",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=VERSION)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"skillbench.cli._{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"skillbench.cli._{name}":
                raise
            continue
        p = sub.add_parser(
            name,
            help=module.HELP,
            description=(
                module.description()
                if hasattr(module, "description")
                else getattr(module, "DESCRIPTION", module.HELP)
            ),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return EXIT_ERROR
    try:
        return int(args._run(args))
    except SkillbenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError as exc:
        if not _reader_gone(sys.stdout):
            print(f"error: {exc} (a pipe to a process skillbench started)", file=sys.stderr)
            return EXIT_ERROR
        # the reader of the output left (``skillbench render … | head``): not a failure
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _reader_gone(stream: TextIO) -> bool:
    """Whether ``stream`` is a pipe whose reading end has closed (a write would fail)."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(event & select.POLLERR for _, event in poller.poll(0))


if __name__ == "__main__":
    sys.exit(main())
