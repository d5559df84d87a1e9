"""``skillbench agents check --fuzz N``: differential testing against the installed CLIs."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_GATE_FAILED,
    EXIT_OK,
    add_output,
    env_default,
)

if TYPE_CHECKING:
    from skillbench.agents import Installed


def add_fuzz_arguments(parser: argparse.ArgumentParser) -> None:
    fuzz = parser.add_argument_group("check --fuzz (differential testing)")
    fuzz.add_argument(
        "--fuzz",
        type=int,
        metavar="N",
        default=env_default("fuzz"),
        help="`check`: compare N generated catalogs per installed CLI instead of the probe "
        "[env: SKILLBENCH_FUZZ]",
    )
    fuzz.add_argument(
        "--seed", type=int, default=env_default("seed", 1), help="generator seed (default: 1)"
    )
    fuzz.add_argument(
        "--release",
        metavar="VERSION",
        default=env_default("release"),
        help="only this installed release (PATH or SKILLBENCH_<AGENT>_<VERSION>_BIN) "
        "[env: SKILLBENCH_RELEASE]",
    )
    fuzz.add_argument(
        "--shrink-limit",
        type=int,
        default=8,
        help="differences shrunk per release; later ones keep their whole catalog (default: 8)",
    )
    fuzz.add_argument(
        "--shrink-tries",
        type=int,
        default=60,
        help="captures one shrink may take (default: 60)",
    )
    add_output(parser, "`check --fuzz`: reproducer folders and report.json (default: fuzz-out)")


def run_fuzz(args: argparse.Namespace, found: list[Installed]) -> int:
    """Fuzz every installed release asked for; the report on stdout, progress on stderr."""
    from skillbench.fuzz import FuzzSettings, fuzz_release

    chosen = [one for one in found if args.release in (None, one.version)]
    for one in found:
        if one.version is None:
            print(f"skipping {one.agent} ({one.executable}): {one.error}", file=sys.stderr)
    usable = [one for one in chosen if one.version is not None]
    installed = {one.agent for one in found}
    if not args.quiet:
        for name in args.agent or _all_agents():
            if name not in installed:
                print(f"skipping {name}: its CLI is not installed", file=sys.stderr)
    if not usable:
        print("error: no installed agent CLI to fuzz", file=sys.stderr)
        return EXIT_ERROR
    out = Path(args.output or "fuzz-out")
    settings = FuzzSettings(
        args.fuzz,
        args.seed,
        out,
        max(1, args.jobs),
        shrink_limit=args.shrink_limit,
        shrink_tries=args.shrink_tries,
    )

    def progress(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    start = time.perf_counter()
    results = [fuzz_release(one, settings, progress) for one in usable]
    elapsed = time.perf_counter() - start
    report = {
        "seed": args.seed,
        "cases": args.fuzz,
        "seconds": round(elapsed, 2),
        "releases": [r.to_json() for r in results],
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if args.format == "json":
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for result in results:
            print(result.summary())
        print(f"{len(results)} release(s), seed {args.seed}, {elapsed:.1f} s; report: {out}")
    if any(r.errors for r in results):
        return EXIT_ERROR
    return EXIT_GATE_FAILED if any(r.differences for r in results) else EXIT_OK


def _all_agents() -> list[str]:
    from skillbench.agentspec import AGENT_SPECS

    return AGENT_SPECS.names()
