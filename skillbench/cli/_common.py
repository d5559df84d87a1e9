"""Conventions shared by every subcommand: exit codes, env-var defaults, common flags."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from skillbench._errors import SkillbenchError

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_GATE_FAILED = 100
EXIT_INTERRUPTED = 130


def env_default(flag: str, default: Any = None) -> Any:
    """Default for ``--flag`` from ``SKILLBENCH_FLAG`` (dashes → underscores), else ``default``."""
    return os.environ.get("SKILLBENCH_" + flag.upper().replace("-", "_"), default)


def env_flag(flag: str) -> bool:
    """Default of a switch ``--flag``: on when ``SKILLBENCH_FLAG`` is set to anything but
    empty, ``0`` or ``false``."""
    return env_default(flag, "").strip().lower() not in ("", "0", "false", "no", "off")


def key_values(values: list[str], flag: str, parse_json: bool) -> dict[str, Any]:
    """Repeated ``KEY=VALUE`` arguments of ``flag`` as a mapping (values read as JSON when
    ``parse_json`` and they parse, else kept as text)."""
    out: dict[str, Any] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SkillbenchError(f"{flag} {item!r}: expected KEY=VALUE")
        if parse_json:
            try:
                out[key] = json.loads(value)
            except json.JSONDecodeError:
                out[key] = value
        else:
            out[key] = value
    return out


def add_output(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument(
        "-o", "--output", default=env_default("output"), help=help + " [env: SKILLBENCH_OUTPUT]"
    )


def add_format(parser: argparse.ArgumentParser, choices: list[str], default: str) -> None:
    parser.add_argument(
        "--format",
        choices=choices,
        default=env_default("format", default),
        help=f"output format (default: {default}) [env: SKILLBENCH_FORMAT]",
    )


def add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=env_flag("quiet"),
        help="no progress bar or chatter; errors still go to stderr [env: SKILLBENCH_QUIET]",
    )


def add_sources(parser: argparse.ArgumentParser) -> None:
    """The ``SOURCE ...`` positional of the commands that load a catalog."""
    parser.add_argument("sources", nargs="+", metavar="SOURCE", help="[KIND=]PATH of skills")


def add_endpoint(parser: argparse.ArgumentParser) -> None:
    """Where a ``--model`` is reached and what it may spend: ``--api-base``,
    ``--api-key-env`` and ``--max-cost-usd``."""
    parser.add_argument(
        "--api-base",
        default=env_default("api-base"),
        help="model endpoint URL [env: SKILLBENCH_API_BASE]",
    )
    parser.add_argument(
        "--api-key-env",
        default=env_default("api-key-env"),
        help="the NAME of the variable holding the API key [env: SKILLBENCH_API_KEY_ENV]",
    )
    parser.add_argument(
        "--max-cost-usd",
        type=float,
        default=env_default("max-cost-usd"),
        help="model: stop once this many dollars are spent [env: SKILLBENCH_MAX_COST_USD]",
    )


def add_cwd(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cwd",
        default=env_default("cwd"),
        help="working directory for `paths` activation (default: none, so every "
        "`paths` skill is inactive) [env: SKILLBENCH_CWD]",
    )


def add_profile_options(parser: argparse.ArgumentParser, example: str) -> None:
    """``-O/--option KEY=VALUE`` (JSON values), read with ``key_values(…, parse_json=True)``."""
    parser.add_argument(
        "-O",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"a profile option (repeatable; JSON values), {example}",
    )


def add_profile_and_budget(parser: argparse.ArgumentParser, profiles: list[str], what: str) -> None:
    """``--profile`` (``what`` says what it decides here) and ``--budget`` in characters."""
    parser.add_argument(
        "--profile",
        choices=profiles,
        default=env_default("profile", "codebot"),
        help=f"agent profile: {what} (default: codebot) [env: SKILLBENCH_PROFILE]",
    )
    parser.add_argument(
        "--budget",
        type=positive_int,
        default=env_default("budget"),
        help="listing budget in characters, at least 1, as in run configs (default: the "
        "profile's) [env: SKILLBENCH_BUDGET]",
    )


def positive_int(text: str) -> int:
    """argparse ``type`` for counts that must be at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return value


def non_negative_int(text: str) -> int:
    """argparse ``type`` for token counts that may be 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)
