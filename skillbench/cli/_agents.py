"""``skillbench agents``: the shipped agents, their verified releases, and drift checks."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from skillbench.cli._common import (
    EXIT_GATE_FAILED,
    EXIT_OK,
    add_format,
    add_quiet,
    env_default,
)

if TYPE_CHECKING:
    from skillbench.agents import Installed
    from skillbench.types import JsonObject

HELP = "list the shipped agents, their verified and installed releases; `check` tests for drift"
DESCRIPTION = """\
`skillbench agents` lists each agent skillbench drives: the npm package, the releases its
profile was verified against by capture (`--profile AGENT@VERSION` renders one of them; a
plain AGENT renders the newest), and each installed CLI: on PATH or SKILLBENCH_<AGENT>_BIN,
plus other releases under SKILLBENCH_<AGENT>_<VERSION>_BIN (for example
SKILLBENCH_CODEX_0_171_0_BIN), with the version it reports and whether it is verified.

`skillbench agents check` captures each installed CLI once, offline, on the bundled probe
catalog (datasets/probe: more text than any verified budget, a seeded usage history, a name
that differs from its folder, a `paths` skill, a skill pack) and renders that capture with
the rules of every verified release. Per CLI it says "matches version X" or where it first
differs from its own release and the likely cause (format, budget or window).

Exit codes: 0 every installed CLI lists as a verified release, 100 some differ, 1 error.

examples:
  skillbench agents
  skillbench agents check
  SKILLBENCH_CODEX_0_171_0_BIN=~/codex-0.171/node_modules/.bin/codex \\
      skillbench agents check --agent codex
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from skillbench.agents import AGENTS

    parser.add_argument(
        "action", nargs="?", choices=["list", "check"], default="list", help="default: list"
    )
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        choices=AGENTS.names(),
        help="only this agent; repeat for several (default: every agent)",
    )
    parser.add_argument(
        "--probe",
        metavar="DIR",
        default=env_default("probe"),
        help="the catalog `check` installs as project skills (default: datasets/probe/skills "
        "of the checkout) [env: SKILLBENCH_PROBE]",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=2,
        help="CLIs checked at once (default: 2)",
    )
    add_format(parser, ["text", "json"], "text")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.agents import installed_agents

    found = installed_agents(args.agent)
    if args.action == "list":
        return _list(args, found)
    return _check(args, found)


def _list(args: argparse.Namespace, found: list[Installed]) -> int:
    from skillbench.agents import AGENTS
    from skillbench.listing import PROFILES

    rows: list[JsonObject] = []
    for name in args.agent or AGENTS.names():
        spec, profile = AGENTS.get(name), PROFILES.get(name)
        mine = [one for one in found if one.agent == name]
        verified = ", ".join(profile.verified_versions)
        rows.append(
            {
                "agent": name,
                "npm_package": spec.npm_package,
                "pinned": spec.verified_version,
                "verified": [{"version": r.version, "how": r.verified} for r in profile.releases],
                "installed": [one.to_json() for one in mine],
            }
        )
        if args.format == "json":
            continue
        print(f"{name} ({spec.npm_package}): verified {verified}; CI pins {spec.verified_version}")
        for one in mine:
            state = "verified" if one.verified else "NOT verified"
            version = one.version or f"unknown version ({one.error})"
            print(f"  installed {version} [{state}] via {one.found_by}: {one.executable}")
        if not mine:
            print(f"  not installed: npm install -g {spec.npm_package}@{spec.verified_version}")
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    return EXIT_OK


def _check(args: argparse.Namespace, found: list[Installed]) -> int:
    from skillbench._errors import SkillbenchError
    from skillbench.agents import PROBE, check_all

    usable = [one for one in found if one.version is not None]
    if not usable:
        raise SkillbenchError(
            "no agent CLI is installed: `skillbench agents` says how to install one"
        )
    probe = Path(args.probe).expanduser() if args.probe else PROBE
    if not args.quiet and args.format == "text":
        print(f"checking {len(usable)} CLI(s) on {probe}…", file=sys.stderr)
    start = time.perf_counter()
    checks = check_all(usable, probe, args.jobs)
    elapsed = time.perf_counter() - start
    if args.format == "json":
        out = {"seconds": round(elapsed, 2), "checks": [c.to_json() for c in checks]}
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for check in checks:
            one = check.installed
            print(f"{one.agent} {one.version} ({one.found_by}): {check.verdict()}")
        if not args.quiet:
            print(f"{len(checks)} CLI(s) checked in {elapsed:.1f} s", file=sys.stderr)
    return EXIT_OK if all(c.ok for c in checks) else EXIT_GATE_FAILED
