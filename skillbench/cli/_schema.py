"""``skillbench schema config``: the run config's JSON Schema."""

from __future__ import annotations

import argparse

from skillbench.cli._common import EXIT_OK

HELP = "print the JSON Schema of a run config (for editors and validators)"
DESCRIPTION = """\
Print the JSON Schema of run configs: every key, its type and default, and the accepted
profile, ordering and selector type names of this installation.

examples:
  skillbench schema config > run-config.schema.json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=["config"], help="which schema (config: run configs)")


def run(args: argparse.Namespace) -> int:
    import json

    from skillbench.replay import config_schema

    print(json.dumps(config_schema(), indent=2, sort_keys=True))
    return EXIT_OK
