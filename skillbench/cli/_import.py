"""``skillbench import``: requests, usage and listings from an agent's session logs."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_OK,
    add_format,
    add_output,
    add_quiet,
    env_flag,
)

if TYPE_CHECKING:
    from skillbench.agentspec import SessionLogs
    from skillbench.transcripts import ImportOptions, LogProblem

HELP = "import requests, usage history and listings from an agent's session logs"
DESCRIPTION = """\
Turn session logs into a benchmark: one request per user turn (id, text, at, session, turn,
expected), labelled with the skill invoked during the turn and who chose it (label_source:
model_invoked, user_invoked or none); a usage history for `render --usage` and `usage:
warm_start`; and, for an agent whose logs record them ({keeps}), every skill listing the
model was shown (listings.jsonl, for `skillbench fidelity`). Written to -o DIR as
requests.jsonl, usage.json, listings.jsonl and diagnostics.txt; DIR is replaced whole once
all are written, so it must not hold a log or anything but an earlier import.

With --skills, a model call to a skill outside them is counted and named (diagnostics.txt,
the summary line); a turn whose only calls were such is left out of the requests rather
than written as one that needs no skill.

Every turn that expected a skill says why it did or did not fire (`classes`), from the
listing the agent recorded in that session: not_listed (with the reason when the log or
--skills tells: paths, disable-model-invocation, budget, not_loaded), listed_cut (name only
or description cut), listed_not_invoked, invoked_by_model, invoked_by_user, or
listing_unknown (no listing recorded). --labels FILE (JSONL of {{id, expected}}, as the
viewer exports them) says which skills turns expected beyond what was invoked;
`skillbench report DIR` tabulates the classes per skill.

Secrets (API keys, tokens), e-mail addresses and home directories are redacted from the
output; --keep-paths keeps home directories. Nothing leaves the machine.

Bad lines (truncated, not JSON, not UTF-8, a corrupt .zst) are reported with file and line
and skipped; the rest is imported and the command exits 1. Unknown line types and sessions
that mix agent versions are noted and do not fail the import.

examples:
{examples}
"""
_SHOWN = 20
"""Diagnostics printed to the terminal; diagnostics.txt holds every one."""


def _importable() -> dict[str, SessionLogs]:
    """Agent name → its session logs, for every agent whose logs skillbench reads."""
    from skillbench.agentspec import AGENT_SPECS

    return {s.name: s.logs for s in AGENT_SPECS.values() if s.logs is not None}


def description() -> str:
    """The help text, with the agents whose logs skillbench reads, from their records."""
    logs = _importable()
    examples = [f"  skillbench import {a} {at.folder} -o mine/{a}" for a, at in logs.items()]
    first = next(iter(logs))
    examples += [
        f"  skillbench import {first} session.jsonl --skills ./skills --keep-paths",
        f"  skillbench import {first} {logs[first].folder} -o mine --labels mine-labels.jsonl",
    ]
    keeps = ", ".join(a for a, at in logs.items() if at.keeps_listings)
    return DESCRIPTION.format(keeps=keeps, examples="\n".join(examples))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", choices=list(_importable()), help="whose logs")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="log files or directories")
    add_output(parser, "output directory (default: imported)")
    parser.add_argument(
        "--skills",
        action="append",
        metavar="SOURCE",
        help="[KIND=]PATH of the skills in use (repeatable): only they become labels, and "
        "commands naming anything else (/clear …) are not requests",
    )
    parser.add_argument(
        "--labels",
        metavar="FILE",
        help="JSONL of {id, expected}: the skills those turns expected (replaces what was "
        "invoked as their label; their classes follow)",
    )
    parser.add_argument(
        "--keep-paths",
        action="store_true",
        default=env_flag("keep-paths"),
        help="keep home-directory paths in the output [env: SKILLBENCH_KEEP_PATHS]",
    )
    add_format(parser, ["text", "json"], "text")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench._sanitize import printable
    from skillbench.transcripts import DIAGNOSTICS_FILE, ImportOptions, import_logs

    out = Path(args.output or "imported")
    options = ImportOptions(keep_paths=args.keep_paths)
    if args.skills:
        options = _with_catalog(options, args.skills, args.agent)
    if args.labels:
        from skillbench.dataset import load_labels

        options = replace(options, labels=load_labels(args.labels))
    shown = 0

    def report(diagnostic: LogProblem) -> None:
        nonlocal shown
        shown += 1
        if shown <= _SHOWN and not args.quiet:
            print(printable(str(diagnostic)), file=sys.stderr)

    summary = import_logs(args.agent, args.paths, out, options, report)
    diagnostics = printable(str(out / DIAGNOSTICS_FILE))
    if shown > _SHOWN and not args.quiet:
        print(f"… {shown - _SHOWN} more in {diagnostics}", file=sys.stderr)
    counts = {
        "files": summary.files,
        "requests": summary.requests,
        "invocations": summary.invocations,
        "listings": summary.listings,
        "outside_skills": dict(sorted(summary.outside.items())),
        "turns_left_out": summary.left_out,
        "classes": dict(sorted(summary.classes.items())),
        "skipped_lines": summary.skipped,
        "notes": len(summary.diagnostics) - summary.skipped,
        "output": str(out),
    }
    if args.format == "json":
        print(json.dumps(counts, indent=2))
    elif not args.quiet:
        print(
            f"{summary.requests} requests, {summary.invocations} skill invocations, "
            f"{summary.listings} listings from {summary.files} files → {printable(str(out))}",
            file=sys.stderr,
        )
        if summary.classes:
            classes = ", ".join(f"{c} {n}" for c, n in sorted(summary.classes.items()))
            print(f"expected skills by class: {classes}", file=sys.stderr)
        if summary.outside:
            calls = ", ".join(f"{name} ({n})" for name, n in sorted(summary.outside.items()))
            one = summary.left_out == 1
            print(
                f"model calls to skills outside --skills: {calls}; {summary.left_out} "
                f"turn{'' if one else 's'} that called nothing else "
                f"{'was' if one else 'were'} left out (no negatives)",
                file=sys.stderr,
            )
    if not summary.files:
        given = printable(", ".join(args.paths))
        print(f"error: no {args.agent} log files under {given}; nothing written", file=sys.stderr)
        return EXIT_ERROR
    if summary.skipped:
        print(
            f"error: {summary.skipped} unreadable lines skipped (see {diagnostics})",
            file=sys.stderr,
        )
        return EXIT_ERROR
    return EXIT_OK


def _with_catalog(options: ImportOptions, sources: list[str], agent: str) -> ImportOptions:
    """``options`` limited to the skills of ``sources`` (loaded with ``agent``'s precedence)."""
    from skillbench.catalog import load_catalog

    catalog = load_catalog(sources, profile=agent)
    by_dir = {Path(s.path).parent.name: s.name for s in catalog.skills if s.path}
    return replace(
        options,
        known=frozenset(s.name for s in catalog.skills),
        by_dir=by_dir,
        skills=tuple(catalog.skills),
    )
