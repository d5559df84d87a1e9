"""``skillbench fidelity``: skillbench's listings against what the agents send or recorded."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from skillbench._errors import SkillbenchError
from skillbench.agents import AGENTS
from skillbench.cli._capture import add_capture_options, capture_kwargs
from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_GATE_FAILED,
    EXIT_OK,
    add_format,
    add_quiet,
    add_sources,
    env_default,
)

if TYPE_CHECKING:
    from skillbench.agentspec import AgentSpec
    from skillbench.transcripts import ListingDiff

HELP = "compare skillbench's listings with what the real agents send, byte for byte"
DESCRIPTION = """\
With --agent AGENT: run the installed agent once offline with the SOURCEs installed
(`skillbench capture`), render the same skills with skillbench's profile of that agent
(built-in skills from the capture's agent snapshot, the model's context window), and
compare the listing block byte for byte.

With --listings: for each listing {title} recorded (listings.jsonl from `skillbench import
{recorder}`), render the same skills with skillbench's {recorder} profile and compare
the two byte for byte: zero differences, or the first differing byte and the exact lines
that differ (- recorded, + skillbench). The recorded order is kept unless --order says
otherwise, so entry text and budget are what is tested. Later (delta) listings are skipped
unless --deltas.

Exit codes: 0 every listing matches, 100 some differ, 1 error (bad input).

examples:
  skillbench fidelity --agent {first} project=./skills
  skillbench fidelity --agent {first} project=./skills --model MODEL --format json
  skillbench fidelity {user} --listings mine/{recorder}/listings.jsonl
  skillbench fidelity user={user} project={project} --listings l.jsonl --format json
"""


def _recorder() -> AgentSpec:
    """The agent whose imports keep the listings its logs record (``SessionLogs``)."""
    from skillbench.agentspec import AGENT_SPECS

    return next(s for s in AGENT_SPECS.values() if s.logs and s.logs.keeps_listings)


def description() -> str:
    """The help text, with the agents named from their records."""
    from skillbench.agentspec import default_agents

    recorder = _recorder()
    return DESCRIPTION.format(
        first=default_agents()[0].name,
        recorder=recorder.name,
        title=recorder.title,
        user=recorder.reads("user")[0],
        project=recorder.reads("project")[0],
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_sources(parser)
    parser.add_argument(
        "--agent",
        choices=AGENTS.names(),
        default=env_default("agent"),
        help="capture this agent live and compare (instead of --listings) [env: SKILLBENCH_AGENT]",
    )
    parser.add_argument(
        "--listings",
        default=env_default("listings"),
        help=f"recorded listings (JSONL from `skillbench import {_recorder().name}`) "
        "[env: SKILLBENCH_LISTINGS]",
    )
    parser.add_argument(
        "--budget", type=int, help="listing budget in characters (default: the profile's)"
    )
    parser.add_argument(
        "--order", default="given", help="ordering spec (default: given = the recorded order)"
    )
    parser.add_argument("--deltas", action="store_true", help="compare delta listings too")
    add_capture_options(parser)
    add_format(parser, ["text", "json"], "text")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    if (args.agent is None) == (args.listings is None):
        raise SkillbenchError("fidelity: give either --agent AGENT or --listings FILE")
    if args.agent is not None:
        given = [flag for flag, on in _RECORDED_ONLY.items() if on(args)]
        if given:
            raise SkillbenchError(
                f"fidelity --agent: {given[0]} applies to --listings; the capture's own "
                "setting decides (e.g. --env SLASH_COMMAND_TOOL_CHAR_BUDGET=N for a budget)"
            )
        return _live(args)
    return _recorded(args)


_RECORDED_ONLY = {
    "--budget": lambda a: a.budget is not None,
    "--order": lambda a: a.order != "given",
    "--deltas": lambda a: a.deltas,
}
"""Flags of the ``--listings`` comparison that a live capture has no use for."""


def _live(args: argparse.Namespace) -> int:
    from skillbench._sanitize import printable
    from skillbench.agents import agent_fidelity

    result = agent_fidelity(args.agent, args.sources, **capture_kwargs(args))
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        head = f"{result.agent} {result.version} ({len(result.listing):,} chars captured)"
        if result.identical:
            print(f"{head}: identical, 0 differences")
        else:
            print(f"{head}: differs, first at byte {result.first_difference}")
            for line in result.lines:
                print(f"  {printable(line)}")
    for note in result.notes:
        print(f"note: {printable(note)}", file=sys.stderr)
    return EXIT_OK if result.identical else EXIT_GATE_FAILED


def _recorded(args: argparse.Namespace) -> int:
    from skillbench._sanitize import printable
    from skillbench.catalog import load_catalog
    from skillbench.transcripts import LogProblem, check_listings, diff_json

    profile = _recorder().name
    catalog = load_catalog(args.sources, profile=profile)
    diffs: list[ListingDiff] = []
    problems: list[LogProblem] = []
    for item in check_listings(
        catalog.skills,
        args.listings,
        profile=profile,
        budget=args.budget,
        ordering=args.order,
        include_deltas=args.deltas,
    ):
        if isinstance(item, LogProblem):
            problems.append(item)
            print(printable(str(item)), file=sys.stderr)
        else:
            diffs.append(item)
    if args.format == "json":
        print(json.dumps([diff_json(d) for d in diffs], indent=2, ensure_ascii=False))
    else:
        for diff in diffs:
            _print(diff)
    differing = sum(not d.identical for d in diffs)
    if not args.quiet:
        print(
            f"{len(diffs) - differing} of {len(diffs)} listings match byte for byte",
            file=sys.stderr,
        )
    if problems or not diffs:
        if not diffs:
            print("error: no listing to compare", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_GATE_FAILED if differing else EXIT_OK


def _print(diff: ListingDiff) -> None:
    """One listing's comparison; every recorded string is escaped before the terminal."""
    from skillbench._sanitize import printable

    head = printable(f"{diff.source} (session {diff.session or '?'})")
    if diff.identical:
        print(f"{head}: 0 differences ({diff.recorded_bytes} bytes)")
        return
    where = "" if diff.first_difference is None else f", first at byte {diff.first_difference}"
    print(
        f"{head}: differs ({diff.recorded_bytes} bytes recorded, "
        f"{diff.rendered_bytes} rendered{where})"
    )
    for name in diff.missing:
        print(f"  not in the catalog: {printable(name)}")
    for line in diff.lines:
        print(f"  {printable(line)}")
