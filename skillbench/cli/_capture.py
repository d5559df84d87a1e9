"""``skillbench capture``: run a shipped agent once, offline, and keep what it sent."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.cli._common import (
    EXIT_OK,
    add_format,
    add_output,
    add_quiet,
    env_default,
    env_flag,
    key_values,
)

HELP = "run a shipped agent once offline and keep the request it sends (the ground truth)"
DESCRIPTION = """\
Install SOURCEs where the agent looks for each kind, in a temporary HOME and project:

{folders}

Every outermost skill folder of a SOURCE is installed by its own name, what lies inside it
(nested skills too) with it. The agent's model endpoint is a loopback recorder that answers
with a minimal valid reply; one non-interactive turn runs, and what the agent sent is written
to DIR: request.json (the turn that carries the listing), requests/ (every request),
listing.txt (the listing block exactly as sent), tools.json, agent.json (agent, version,
model, settings) and stdout.txt.

Skill folders are installed as the agent finds them without copying what it never reads:
regular files only, no link followed out of a skill folder, files over 8 MiB left out, at
most 256 MiB and 20,000 files; each thing left out is a `note:` line naming its path.
SIGTERM, like Ctrl-C, stops the agent and removes the temporary folders (exit 130).

A second turn with no user skills reads the agent's own text (built-in skills, the
listing's framing, tool definitions, system prompt) into an agent snapshot, kept in
skillbench's cache where the agent's profile finds it (`snapshot: auto`). That text is the
vendor's: it stays on this machine and is never part of skillbench.

No key, no network: nothing of your environment but PATH and locale reaches the agent,
and nothing is left running. The CLI is found on PATH (or SKILLBENCH_<AGENT>_BIN, for
example {variable}); `skillbench agents` lists the verified releases. A
release skillbench has not verified is a warning in agent.json's notes (refused with
--strict-agents).

examples:
{examples}
"""


def description() -> str:
    """The help text, with every known agent's folders from its record."""
    from skillbench.agents import bin_variable
    from skillbench.agentspec import AGENT_SPECS, default_agents

    lines = []
    for spec in AGENT_SPECS.values():
        kinds = [f"{f.scope} → {f.path}" for f in spec.folders if f.install]
        kinds += [f"{kind} → {how}" for kind, how in spec.own_installs.items()]
        lines.append(f"  {spec.name}: {', '.join(kinds)}")
    examples = [
        f"  skillbench capture {spec.name} project=./skills -o captures/{spec.name}"
        for spec in default_agents()
    ]
    first = default_agents()[0]
    if first.launch.budget_variable:
        examples.append(
            f"  skillbench capture {first.name} ./skills --model MODEL \\\n"
            f"      --env {first.launch.budget_variable}=12000"
        )
    return DESCRIPTION.format(
        folders="\n".join(lines),
        variable=bin_variable(first.name),
        examples="\n".join(examples),
    )


def add_agent(parser: argparse.ArgumentParser) -> None:
    from skillbench.agents import AGENTS

    parser.add_argument("agent", choices=AGENTS.names(), help="the agent to run")


def add_capture_options(parser: argparse.ArgumentParser) -> None:
    """What a capture can vary: model, settings, environment, usage, prompt, time limit."""
    parser.add_argument(
        "--model",
        default=env_default("agent_model"),
        help="the agent's --model "
        "(an agent's listing budget may follow its context window) [env: SKILLBENCH_AGENT_MODEL]",
    )
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an agent setting (a key of its settings file: JSON or TOML as the agent reads "
        "it); "
        "VALUE is read as JSON when it parses (repeatable)",
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an environment variable for the agent (repeatable)",
    )
    parser.add_argument(
        "--usage",
        action="append",
        default=[],
        metavar="SKILL=COUNT",
        help="seed the agent's skill-usage history (repeatable)",
    )
    parser.add_argument("--prompt", default="hello", help="the user's message (default: hello)")
    parser.add_argument(
        "--timeout", type=float, default=180.0, help="seconds the agent may take (default: 180)"
    )


def add_strict_agents(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--strict-agents",
        action="store_true",
        default=env_flag("strict_agents"),
        help="refuse to run an agent CLI whose release skillbench's profile was not verified "
        "against (default: a warning in the notes) [env: SKILLBENCH_STRICT_AGENTS]",
    )


def apply_strict_agents(args: argparse.Namespace) -> None:
    """Make ``--strict-agents`` hold for every agent turn of this process and its workers."""
    if getattr(args, "strict_agents", False):
        from skillbench.agents import STRICT_VARIABLE

        os.environ[STRICT_VARIABLE] = "1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_agent(parser)
    parser.add_argument("sources", nargs="*", metavar="SOURCE", help="[KIND=]PATH of skills")
    add_output(parser, "folder for the capture (default: captures/AGENT)")
    add_capture_options(parser)
    parser.add_argument(
        "--no-snapshot", action="store_true", help="skip the turn that reads the agent's own text"
    )
    add_strict_agents(parser)
    add_format(parser, ["text", "json"], "text")
    add_quiet(parser)


def usage_counts(values: list[str]) -> dict[str, int]:
    """``--usage SKILL=COUNT`` as counts; a count that is not a whole number of 0 or more
    is one error naming the flag and the value."""
    counts = key_values(values, "--usage", parse_json=False)
    try:
        out = {name: int(count) for name, count in counts.items()}
    except ValueError:
        raise SkillbenchError(f"--usage: counts must be whole numbers: {values}") from None
    negative = [f"{name}={count}" for name, count in out.items() if count < 0]
    if negative:
        raise SkillbenchError(f"--usage {', '.join(negative)}: counts cannot be negative")
    return out


def capture_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "model": args.model,
        "settings": key_values(args.setting, "--setting", parse_json=True),
        "env": key_values(args.env, "--env", parse_json=False),
        "usage": usage_counts(args.usage),
        "prompt": args.prompt,
        "timeout": args.timeout,
    }


def run(args: argparse.Namespace) -> int:
    from skillbench.agents import capture_agent, store_snapshot
    from skillbench.catalog import parse_source_arg

    apply_strict_agents(args)
    sources = [parse_source_arg(s) for s in args.sources]
    options = capture_kwargs(args)
    if not args.quiet:
        print(f"capturing {args.agent} with {len(sources)} source(s)…", file=sys.stderr)
    capture = capture_agent(args.agent, sources, snapshot=not args.no_snapshot, **options)
    from skillbench._sanitize import printable

    for note in capture.notes:
        print(f"note: {printable(note)}", file=sys.stderr)
    out = capture.save(args.output or f"captures/{args.agent}")
    stored = store_snapshot(capture)
    summary = {
        **capture.describe(),
        "output": str(out),
        "snapshot": str(stored) if stored else None,
        "builtin_skills": len(capture.snapshot.builtin_skills) if capture.snapshot else None,
    }
    if args.format == "json":
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    elif not args.quiet:
        print(
            f"{capture.agent} {capture.version}: {len(capture.requests)} request(s), listing "
            f"{len(capture.listing):,} chars → {out}/listing.txt"
        )
        if stored:
            print(f"agent snapshot ({summary['builtin_skills']} built-in skills) → {stored}")
    for note in capture.notes:
        print(f"warning: {note}", file=sys.stderr)
    return EXIT_OK
