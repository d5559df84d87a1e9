"""``skillbench lint``: what agents will reject, cut, hide or confuse in skill sources."""

from __future__ import annotations

import argparse
import sys

from skillbench.agentspec import default_agents
from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_OK,
    add_cwd,
    add_format,
    add_output,
    env_default,
    env_flag,
)
from skillbench.listing import PROFILES

EXIT_USAGE = 2

HELP = "check skill files for problems agents will trip over"
DESCRIPTION = """\
Check skill sources for what an agent will reject, cut, hide or confuse: frontmatter that
does not parse, names that break the Agent Skills rules or shadow built-in tools and
commands, duplicate and case-colliding names, unresolved placeholders, `paths` globs that
match nothing under --cwd, and, per agent profile, what its caps cut and how much of its
listing budget each skill takes.

Every rule has a stable id (SB101) and slug (name-format); `--explain RULE` describes one,
`--explain all` lists them. Notes (severity info, e.g. the budget share) are printed in
text and github formats with --verbose; JSON always has them.

exit codes: 0 clean, 1 errors (or warnings with --strict) or unreadable input,
2 usage errors (bad flags, no SOURCE, unknown rule).

examples:
  skillbench lint ./skills
  skillbench lint bundled=./builtin project=.claude/skills --cwd . --strict
  skillbench lint ./skills --format github          # annotations in a GitHub Actions step
  skillbench lint --explain SB601
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", nargs="*", metavar="SOURCE", help="[KIND=]PATH of skills")
    parser.add_argument(
        "--profile",
        action="append",
        choices=PROFILES.names(),
        help="agent profile whose caps and budget to check; repeat for several "
        "(default: codebot, " + ", ".join(s.name for s in default_agents()) + ")",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=env_default("budget"),
        help="listing budget in characters (default: each profile's) [env: SKILLBENCH_BUDGET]",
    )
    add_cwd(parser)
    add_format(parser, ["text", "json", "github"], "text")
    add_output(parser, "write the report to this file instead of stdout")
    parser.add_argument(
        "--strict",
        action="store_true",
        default=env_flag("strict"),
        help="warnings fail too (exit 1) [env: SKILLBENCH_STRICT]",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print notes (info) too")
    parser.add_argument("--explain", metavar="RULE", help="describe rule RULE (id or slug), or all")


def _usage(message: str) -> int:
    print(f"skillbench lint: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    from skillbench._errors import SkillbenchError
    from skillbench._output import output_file, write_output
    from skillbench.authoring import all_rules, explain, format_report, get_rule, lint_sources

    if args.explain:
        if args.explain == "all":
            print(
                "\n".join(f"{r.id} {r.slug:<24} {r.severity:<8} {r.summary}" for r in all_rules())
            )
            return EXIT_OK
        try:
            print(explain(get_rule(args.explain)))
        except SkillbenchError as exc:
            return _usage(str(exc))
        return EXIT_OK
    if not args.sources:
        return _usage("give at least one SOURCE (or --explain RULE)")
    if args.output:
        output_file(args.output)
    budget = int(args.budget) if args.budget is not None else None
    profiles = tuple(dict.fromkeys(args.profile)) if args.profile else None
    report = lint_sources(
        args.sources,
        profiles=profiles,
        budget=budget,
        cwd=args.cwd,
    )
    text = format_report(report, args.format, verbose=args.verbose)
    if args.output:
        write_output(args.output, text + "\n")
    else:
        print(text)
    return EXIT_ERROR if report.failed(args.strict) else EXIT_OK
