"""``skillbench schema config``: the run config's JSON Schema."""

from __future__ import annotations

import argparse

from skillbench.cli._common import EXIT_OK

HELP = "print the JSON Schema of a run config or of `plan --format json` (for validators)"
DESCRIPTION = """\
Print the JSON Schema of run configs: every key, its type and default, and the accepted
profile, ordering and selector type names of this installation; or (plan) of what
`skillbench plan --format json` prints.

examples:
  skillbench schema config > run-config.schema.json
  skillbench schema plan > plan.schema.json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "what",
        choices=["config", "plan"],
        help="which schema (config: run configs; plan: plan's JSON report)",
    )


def run(args: argparse.Namespace) -> int:
    import json

    if args.what == "plan":
        from skillbench.planner import plan_schema

        print(json.dumps(plan_schema(), indent=2, sort_keys=True))
        return EXIT_OK
    from skillbench.replay import config_schema

    print(json.dumps(config_schema(), indent=2, sort_keys=True))
    return EXIT_OK
