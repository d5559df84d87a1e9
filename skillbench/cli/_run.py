"""``skillbench run``: replay labelled requests over a config's grid."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_OK,
    add_output,
    add_quiet,
    env_default,
    env_flag,
    warn,
)

if TYPE_CHECKING:
    from skillbench.replay import RunConfig

HELP = "replay labelled requests over a config's grid (budgets × orderings × selectors …)"
DESCRIPTION = """\
Replay labelled requests against rendered listings for every cell of the config's grid and
write results.jsonl, summary.json, manifest.json and config.yaml into the run directory
(default reports/<name>/). Each decision is appended as it finishes: after Ctrl-C, a killed
process or a spend stop, `--resume` redoes only the missing decisions (and those that got no
answer), provided the config, the requests, every catalog as loaded and the usage.warm_start
file are unchanged. A folder holding another config's run is refused unless --overwrite.

exit status: 0 complete; 1 incomplete (decisions without an answer), stopped (spend cap) or
failed; 130 interrupted (Ctrl-C). The manifest records which, with the reason.

examples:
  skillbench run configs/quickstart.yaml                  → reports/quickstart/
  skillbench run configs/quickstart.yaml --dry-run        grid size and estimated calls
  skillbench run configs/quickstart.yaml --limit 50 -o /tmp/smoke
  skillbench run configs/quickstart.yaml --resume         finish an interrupted run
  skillbench run configs/quickstart.yaml --executor ray   cells as Ray tasks (docs/distributed.md)
  skillbench run configs/litellm-example.yaml --model ollama/qwen2.5:7b

Progress (stderr, only on a terminal and without --quiet) shows each phase with its time;
the last lines name the best cell, each swept field's effect and the path to report.html.
Every flag has an environment variable, named in its help (SKILLBENCH_<FLAG>).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="run config (YAML)")
    add_output(parser, "run directory (default: the config's output_dir or reports/<name>)")
    parser.add_argument(
        "--limit",
        type=int,
        default=env_default("limit"),
        help="replay only the first N requests [env: SKILLBENCH_LIMIT]",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        default=env_flag("resume"),
        help="keep finished decisions of the same config in -o DIR [env: SKILLBENCH_RESUME]",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        default=env_flag("overwrite"),
        help="replace a run of another config found in -o DIR [env: SKILLBENCH_OVERWRITE]",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        default=env_flag("dry-run"),
        help="print the grid and estimated calls, run nothing [env: SKILLBENCH_DRY_RUN]",
    )
    parser.add_argument(
        "--model",
        default=env_default("model"),
        help="use this model in every litellm selector of the config [env: SKILLBENCH_MODEL]",
    )
    parser.add_argument(
        "-j",
        "--max-concurrency",
        type=int,
        default=env_default("max-concurrency", "8"),
        help="concurrent calls per endpoint for model selectors (default 8) "
        "[env: SKILLBENCH_MAX_CONCURRENCY]",
    )
    parser.add_argument(
        "-P",
        "--processes",
        type=int,
        default=env_default("processes"),
        help="processes making the calls of every litellm selector (default: its config's "
        "processes, else 1) [env: SKILLBENCH_PROCESSES]",
    )
    parser.add_argument(
        "--executor",
        default=env_default("executor"),
        help="where the replay runs: local (this process) or ray (Ray tasks on RAY_ADDRESS, "
        "else a local Ray instance; pip install 'skillbench[ray]'); default: the config's "
        "executor, else local [env: SKILLBENCH_EXECUTOR]",
    )
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.replay import dry_run, load_config, run_experiment

    config = load_config(args.config)
    if args.model:
        config = with_model(config, args.model)
    if args.processes is not None:
        config = with_processes(config, int(args.processes))
    if args.limit is not None and args.limit < 1:
        from skillbench._errors import SkillbenchError

        raise SkillbenchError("--limit must be at least 1")
    if args.dry_run:
        print_plan(dry_run(config, limit=args.limit, max_concurrency=args.max_concurrency))
        return EXIT_OK
    from skillbench.cli._progress import TerminalProgress

    observer = TerminalProgress() if not args.quiet and sys.stderr.isatty() else None
    try:
        result = run_experiment(
            config,
            output=args.output,
            limit=None if args.limit is None else int(args.limit),
            resume=args.resume,
            overwrite=args.overwrite,
            max_concurrency=int(args.max_concurrency),
            quiet=args.quiet,
            observer=observer,
            executor=args.executor,
        )
        if observer is not None:
            observer.phase("writing the report")
        report = _report(result.run_dir)
    finally:
        if observer is not None:
            observer.close()
    if not args.quiet:
        for note in result.notes:
            print(f"warning: {note}", file=sys.stderr)
        print(summary_table(result.cells))
        if report is not None:
            from skillbench.report import load_run
            from skillbench.report._headline import headline_text

            print("\n" + headline_text(load_run(result.run_dir)))
        print(f"\n{result.decisions} decisions → {result.run_dir}")
        if report is not None:
            print(f"report: {report}")
    if result.status == "complete":
        return EXIT_OK
    print(
        f"error: run {result.status}: {result.reason}\n"
        f"continue it with: skillbench run {args.config} --resume -o {result.run_dir}",
        file=sys.stderr,
    )
    return EXIT_ERROR


def with_model(config: RunConfig, model: str) -> RunConfig:
    """``config`` with ``model`` in every litellm selector (an error when it has none)."""
    from skillbench._errors import SkillbenchError

    if not any(s.type == "litellm" for s in config.selectors):
        raise SkillbenchError(f"--model {model}: the config has no litellm selector")
    return _in_litellm_selectors(config, "model", model)


def with_processes(config: RunConfig, processes: int) -> RunConfig:
    """``config`` with ``processes`` in every litellm selector; unchanged without one, so
    ``SKILLBENCH_PROCESSES`` can stay set for runs of other selectors."""
    from skillbench._errors import SkillbenchError

    if processes < 1:
        raise SkillbenchError("--processes must be at least 1")
    if not any(s.type == "litellm" for s in config.selectors):
        return config
    return _in_litellm_selectors(config, "processes", processes)


def _in_litellm_selectors(config: RunConfig, key: str, value: Any) -> RunConfig:
    from skillbench.replay import SelectorConfig

    selectors = [
        SelectorConfig.model_validate({**s.model_dump(), key: value}) if s.type == "litellm" else s
        for s in config.selectors
    ]
    return config.model_copy(update={"selectors": selectors})


def _report(run_dir: Path) -> Path | None:
    """Write the report; never fatal, since the results it reads are already on disk."""
    from skillbench.report import write_report

    try:
        written = write_report(run_dir)
    except Exception as exc:
        warn(f"report not written ({type(exc).__name__}: {exc}); results are in {run_dir}")
        return None
    return next((p for p in written if p.name == "report.html"), None)


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def summary_table(cells: Sequence[Mapping[str, Any]]) -> str:
    """One line per summary cell: the settings, n (and errors, when any), the headline
    metrics of the registry with accuracy's interval."""
    from skillbench.metrics import METRICS
    from skillbench.types import cell_fields

    keys = cell_fields(cells)
    metrics = [m.name for m in METRICS.values() if m.headline]
    counts = ["n", "errors"] if any(c.get("errors") for c in cells) else ["n"]
    lines = [[*keys, *counts, metrics[0], "95% CI", *metrics[1:]]]
    for c in cells:
        ci = c.get(f"{metrics[0]}_ci") or [None, None]
        lines.append(
            [
                *(_fmt(c.get(k)) for k in (*keys, *counts, metrics[0])),
                f"[{_fmt(ci[0])}, {_fmt(ci[1])}]",
                *(_fmt(c.get(m)) for m in metrics[1:]),
            ]
        )
    widths = [max(len(row[i]) for row in lines) for i in range(len(lines[0]))]
    return "\n".join(
        "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in lines
    )


def print_plan(plan: Mapping[str, Any]) -> None:
    """The dry-run report: grid size, then per selector its cells and any cost estimate."""
    grid = plan["grid"]
    print(
        f"run {plan['name']}: {plan['requests']} requests × {plan['cells']} cells "
        f"= {plan['decisions']} decisions"
    )
    for key in ("catalogs", "profiles", "budgets", "orderings", "half_lives", "selectors"):
        print(f"  {key:<10} {', '.join(str(v) for v in grid[key])}")
    print(f"  repeats    {grid['repeats']}")
    for key in ("catalog_sizes", "distractors"):
        if key in grid:
            print(f"  {key:<10} {', '.join(str(v) for v in grid[key])}")
    for note in plan.get("notes", ()):
        print(f"  note: {note}")
    for name, sel in plan["selectors"].items():
        line = (
            f"selector {name} ({sel['type']}): {sel['cells']} cells, {sel['decisions']} decisions"
        )
        if "plan" in sel:
            line += " · " + json.dumps(sel["plan"], sort_keys=True)
        print(line)
