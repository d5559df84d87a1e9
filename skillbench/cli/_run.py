"""``skillbench run``: replay labelled requests over a config's grid."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from skillbench.cli._common import EXIT_ERROR, EXIT_OK, add_output, add_quiet, env_default, warn

HELP = "replay labelled requests over a config's grid (budgets × orderings × selectors …)"
DESCRIPTION = """\
Replay labelled requests against rendered listings for every cell of the config's grid and
write results.jsonl, summary.json, manifest.json and config.yaml into the run directory
(default reports/<name>/). Each decision is appended as it finishes: after Ctrl-C, a killed
process or a spend stop, `--resume` redoes only the missing decisions (and those that got no
answer). A folder holding another config's run is refused unless --overwrite.

exit status: 0 complete; 1 incomplete (decisions without an answer), stopped (spend cap) or
failed; 130 interrupted (Ctrl-C). The manifest records which, with the reason.

examples:
  skillbench run configs/quickstart.yaml                  → reports/quickstart/
  skillbench run configs/quickstart.yaml --dry-run        grid size and estimated calls
  skillbench run configs/quickstart.yaml --limit 50 -o /tmp/smoke
  skillbench run configs/quickstart.yaml --resume         finish an interrupted run
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="run config (YAML)")
    add_output(parser, "run directory (default: the config's output_dir or reports/<name>)")
    parser.add_argument("--limit", type=int, help="replay only the first N requests")
    parser.add_argument(
        "--resume", action="store_true", help="keep finished decisions of the same config in -o DIR"
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        default=env_default("overwrite", "") not in ("", "0", "false"),
        help="replace a run of another config found in -o DIR [env: SKILLBENCH_OVERWRITE]",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the grid and estimated calls, run nothing"
    )
    parser.add_argument(
        "-j",
        "--max-concurrency",
        type=int,
        default=env_default("max-concurrency", "8"),
        help="concurrent calls per endpoint for model selectors (default 8) "
        "[env: SKILLBENCH_MAX_CONCURRENCY]",
    )
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.replay import dry_run, load_config, run_experiment

    config = load_config(args.config)
    if args.limit is not None and args.limit < 1:
        from skillbench._errors import SkillbenchError

        raise SkillbenchError("--limit must be at least 1")
    if args.dry_run:
        print_plan(dry_run(config, limit=args.limit, max_concurrency=args.max_concurrency))
        return EXIT_OK
    show = not args.quiet and sys.stderr.isatty()
    progress, close = _progress_bar() if show else (None, lambda: None)
    try:
        result = run_experiment(
            config,
            output=args.output,
            limit=args.limit,
            resume=args.resume,
            overwrite=args.overwrite,
            max_concurrency=args.max_concurrency,
            quiet=args.quiet,
            progress=progress,
        )
    finally:
        close()
    _report(result.run_dir)
    if not args.quiet:
        print(summary_table(result.cells))
        print(f"\n{result.decisions} decisions → {result.run_dir}")
    if result.status == "complete":
        return EXIT_OK
    print(
        f"error: run {result.status}: {result.reason}\n"
        f"continue it with: skillbench run {args.config} --resume -o {result.run_dir}",
        file=sys.stderr,
    )
    return EXIT_ERROR


def _progress_bar() -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A tqdm bar on stderr fed with ``(done, total)``."""
    from tqdm import tqdm

    bar = tqdm(total=0, file=sys.stderr, unit="dec", dynamic_ncols=True, mininterval=0.2)

    def update(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
        bar.update(done - bar.n)

    return update, bar.close


def _report(run_dir: Path) -> None:
    """Write the report; never fatal, since the results it reads are already on disk."""
    from skillbench.report import write_report

    try:
        write_report(run_dir)
    except Exception as exc:
        warn(f"report not written ({type(exc).__name__}: {exc}); results are in {run_dir}")


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def summary_table(cells: Sequence[Mapping[str, Any]]) -> str:
    """One line per summary cell: the settings, n (and errors, when any), the headline
    metrics of the registry with accuracy's interval."""
    from skillbench.metrics import METRICS
    from skillbench.types import CELL_FIELDS

    metrics = [m.name for m in METRICS.values() if m.headline]
    counts = ["n", "errors"] if any(c.get("errors") for c in cells) else ["n"]
    lines = [[*CELL_FIELDS, *counts, metrics[0], "95% CI", *metrics[1:]]]
    for c in cells:
        ci = c.get(f"{metrics[0]}_ci") or [None, None]
        lines.append(
            [
                *(_fmt(c.get(k)) for k in (*CELL_FIELDS, *counts, metrics[0])),
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
    for name, sel in plan["selectors"].items():
        line = (
            f"selector {name} ({sel['type']}): {sel['cells']} cells, {sel['decisions']} decisions"
        )
        if "plan" in sel:
            line += " · " + json.dumps(sel["plan"], sort_keys=True)
        print(line)
