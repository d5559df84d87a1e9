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
{variable}), with the version it reports and whether it is verified.

`skillbench agents check` captures each installed CLI once, offline, on the bundled probe
catalog (datasets/probe: more text than any verified budget, a seeded usage history, a name
that differs from its folder, a `paths` skill, a skill pack) and renders that capture with
the rules of every verified release. Per CLI it says "matches version X" or where it first
differs from its own release and the likely cause (format, budget or window).

`skillbench agents pins` prints the package of each agent's pinned release, one a line
(`--newest`: the newest verified releases that are not pinned; `--bin-dir DIR`: the
SKILLBENCH_<AGENT>_<VERSION>_BIN lines that point at them), so CI installs exactly what the
agents' records name.

`skillbench agents check --fuzz N` is differential testing: N seeded catalogs (front matter
shapes, names, layouts, sizes and budgets; `--seed`), packed many to one agent start-up,
each capture compared byte for byte with the profile of the captured release; every
difference is shrunk to a minimal catalog and written as a reproducer folder under
`-o DIR` (a README with the `skillbench fidelity` command that shows it, and the diff).
`--release VERSION` checks only that release (installed under
SKILLBENCH_<AGENT>_<VERSION>_BIN). An agent that does not start is an error, never a pass.

Exit codes: 0 every installed CLI lists as a verified release (with --fuzz: no difference),
100 some differ, 1 error.

examples:
  skillbench agents
  skillbench agents check
  skillbench agents check --fuzz 300 --seed 1 --agent {name} -o fuzz-out
  {variable}=~/{executable}-{version}/node_modules/.bin/{executable} \\
      skillbench agents check --agent {name}
"""


def description() -> str:
    """The help text, its examples naming the newest release of a default agent."""
    from skillbench.agents import bin_variable
    from skillbench.agentspec import default_agents

    spec = default_agents()[-1]
    version = spec.newest.version
    return DESCRIPTION.format(
        name=spec.name,
        variable=bin_variable(spec.name, version),
        executable=spec.package.executable,
        version=version,
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from skillbench.agents import AGENTS
    from skillbench.cli._agents_fuzz import add_fuzz_arguments

    parser.add_argument(
        "action",
        nargs="?",
        choices=["list", "check", "pins"],
        default="list",
        help="default: list",
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
    add_fuzz_arguments(parser)
    pins = parser.add_argument_group("pins (what CI installs)")
    pins.add_argument(
        "--registry",
        choices=["npm", "pypi"],
        default="npm",
        help="`pins`: the agents whose packages come from this registry (default: npm)",
    )
    pins.add_argument(
        "--newest",
        action="store_true",
        help="`pins`: each agent's newest verified release where it is not the pinned one",
    )
    pins.add_argument(
        "--bin-dir",
        metavar="DIR",
        help="`pins --newest`: print `export SKILLBENCH_<AGENT>_<VERSION>_BIN=DIR/<cli>` lines "
        "instead of the packages",
    )
    add_format(parser, ["text", "json"], "text")
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.agents import installed_agents

    if args.action == "pins":
        return _pins(args)
    found = installed_agents(args.agent)
    if args.action == "list":
        return _list(args, found)
    if args.fuzz:
        from skillbench.cli._agents_fuzz import run_fuzz

        return run_fuzz(args, found)
    return _check(args, found)


def _list(args: argparse.Namespace, found: list[Installed]) -> int:
    from skillbench.agentspec import AGENT_SPECS

    rows: list[JsonObject] = []
    for name in args.agent or AGENT_SPECS.names():
        spec = AGENT_SPECS.get(name)
        mine = [one for one in found if one.agent == name]
        verified = ", ".join(spec.versions)
        pinned = spec.pinned.version
        rows.append(
            {
                "agent": name,
                "package": {"registry": spec.package.registry, "name": spec.package.name},
                "pinned": pinned,
                "verified": [{"version": r.version, "how": r.verified} for r in spec.releases],
                "installed": [one.to_json() for one in mine],
            }
        )
        if args.format == "json":
            continue
        print(f"{name} ({spec.package.name}): verified {verified}; CI pins {pinned}")
        for one in mine:
            state = "verified" if one.verified else "NOT verified"
            version = one.version or f"unknown version ({one.error})"
            print(f"  installed {version} [{state}] via {one.found_by}: {one.executable}")
        if not mine:
            print(f"  not installed: {spec.package.install_command(pinned)}")
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    return EXIT_OK


def _pins(args: argparse.Namespace) -> int:
    """The package of each agent's pinned (or newest) release, one a line, for an install
    command; or the variables that point skillbench at the newest releases."""
    from skillbench.agents import bin_variable
    from skillbench.agentspec import AGENT_SPECS

    for name in args.agent or AGENT_SPECS.names():
        spec = AGENT_SPECS.get(name)
        if spec.package.registry != args.registry:
            continue
        release = spec.newest if args.newest else spec.pinned
        if args.newest and release == spec.pinned:
            continue
        if args.bin_dir:
            path = Path(args.bin_dir) / spec.package.executable
            print(f"export {bin_variable(name, release.version)}={path}")
        else:
            print(spec.package.pin(release.version))
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
