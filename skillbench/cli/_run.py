"""``skillbench run``: replay labelled requests over a config's grid."""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillbench._errors import SkillbenchError
from skillbench.cli._capture import add_strict_agents, apply_strict_agents
from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_output,
    add_quiet,
    env_default,
    env_flag,
    warn,
)

if TYPE_CHECKING:
    from skillbench.replay import CellEstimate, DryRun, RunConfig
    from skillbench.results import CellFields, Run

HELP = "replay labelled requests over a config's grid (budgets × orderings × selectors …)"
DESCRIPTION = """\
Replay labelled requests against rendered listings for every cell of the config's grid and
write results.jsonl, summary.json, manifest.json and config.yaml into the run directory
(default reports/<name>/). Each decision is appended as it finishes: after Ctrl-C, a killed
process or a spend stop, `--resume` redoes only the missing decisions (and those that got no
answer), provided the config, the requests, every catalog as loaded and the usage.warm_start
file are unchanged. A folder holding another config's run is refused unless --overwrite.
One process writes a run folder at a time: while a run (or a report) writes it, another `run`
on it (with --resume or --overwrite too) is refused, naming the writer's pid and command; a
lock left by a killed process is reported as stale and taken over.

Every model and live cell also gets positive controls (the config's `controls:`): listed
skills asked for by name; a cell whose controls trigger below the threshold (0.95) is
`controls_failed` and the run ends incomplete unless --allow-failed-controls.

exit status: 0 complete; 1 incomplete (decisions without an answer, failed controls),
stopped (spend cap) or failed; 130 interrupted (Ctrl-C). The manifest records which, with
the reason.

examples:
  skillbench run configs/quickstart.yaml                  → reports/quickstart/
  skillbench run configs/quickstart.yaml --dry-run        grid size and estimated calls
  skillbench run configs/quickstart.yaml --limit 50 -o /tmp/smoke
  skillbench run configs/quickstart.yaml --resume         finish an interrupted run
  skillbench run configs/quickstart.yaml --executor ray   cells as Ray tasks (docs/distributed.md)
  skillbench run configs/litellm-example.yaml --model ollama/qwen2.5:7b

Progress (stderr, without --quiet; redrawn on a terminal, a line every 15 s elsewhere) shows
each phase with its time; with litellm or agent selectors also the model decisions per minute,
the dollars spent and projected, and the positive controls triggered. The last lines name the
best cell, each swept field's effect and the path to report.html.
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
        "else a local Ray instance; pip install -e '.[ray]' in the skillbench checkout); "
        "default: the config's executor, else local [env: SKILLBENCH_EXECUTOR]",
    )
    parser.add_argument(
        "--labels",
        metavar="FILE",
        default=env_default("labels"),
        help="label overrides (JSONL of {id, expected}, as the viewer exports them) that "
        "replace those requests' labels [env: SKILLBENCH_LABELS]",
    )
    parser.add_argument(
        "--keep-raw",
        action="store_true",
        default=env_flag("keep-raw"),
        help="keep every model answer whole in the results (default: an answer longer than "
        "16,384 characters is kept as its head, tail, size and sha256; the decision is read "
        "from the whole answer either way); the config's keep_raw_answers [env: "
        "SKILLBENCH_KEEP_RAW]",
    )
    parser.add_argument(
        "--allow-failed-controls",
        action="store_true",
        default=env_flag("allow-failed-controls"),
        help="end complete even when a cell failed its positive controls (the report still "
        "greys it) [env: SKILLBENCH_ALLOW_FAILED_CONTROLS]",
    )
    add_strict_agents(parser)
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench.replay import dry_run, load_config, run_experiment, run_folder
    from skillbench.results import read_run

    apply_strict_agents(args)
    config = load_config(args.config)
    if args.model:
        config = with_model(config, args.model)
    if args.processes is not None:
        config = with_processes(config, int(args.processes))
    if args.labels:
        config = with_labels(config, Path(args.labels))
    if args.keep_raw:
        config = config.model_copy(update={"keep_raw_answers": True})
    if args.limit is not None and args.limit < 1:
        raise SkillbenchError("--limit must be at least 1")
    if args.dry_run:
        plan = dry_run(
            config,
            limit=args.limit,
            max_concurrency=args.max_concurrency,
            executor=args.executor,
        )
        print_plan(plan)
        return EXIT_OK
    from skillbench.cli._progress import make_progress
    from skillbench.cli._progress_live import live_plan

    target = Path(args.output) if args.output else config.output_path()
    fresh = not target.exists()
    observer = (
        None
        if args.quiet
        else make_progress(sys.stderr, live_plan(config, target, resume=args.resume))
    )
    report = None
    try:
        with run_folder(target):  # held until the report is written too
            result = run_experiment(
                config,
                output=target,
                limit=None if args.limit is None else int(args.limit),
                resume=args.resume,
                overwrite=args.overwrite,
                max_concurrency=int(args.max_concurrency),
                quiet=args.quiet,
                observer=observer,
                executor=args.executor,
                allow_failed_controls=args.allow_failed_controls,
            )
            if observer is not None:
                observer.phase("writing the report: tables, plots, report.md and report.html")
            finished = read_run(result.run_dir)
            report = _report(finished)
    except KeyboardInterrupt:
        if observer is not None:
            observer.close(finished=False)
            observer = None
        print(interrupted_message(args.config, target), file=sys.stderr)
        return EXIT_INTERRUPTED
    except SkillbenchError:
        if fresh and target.is_dir() and not any(target.iterdir()):
            target.rmdir()  # nothing was written: leave no empty folder behind
        raise
    finally:
        if observer is not None:
            observer.close()
    if not args.quiet:
        for note in result.notes:
            print(f"warning: {note}", file=sys.stderr)
        print(summary_table(finished.summary.cells))
        saved = adaptive_line(finished.summary.cells)
        if saved:
            print(saved)
        if report is not None:
            from skillbench.report import headline_text

            print("\n" + headline_text(finished))
        print(f"\n{result.decisions} decisions → {result.run_dir}")
        if report is not None:
            print(f"report: {report}")
        print(f"every decision, filterable: skillbench view {result.run_dir}")
    if result.status == "complete":
        return EXIT_OK
    if result.status == "incomplete" and not result.errors:
        print(f"error: run incomplete: {result.reason}", file=sys.stderr)
        return EXIT_ERROR
    print(
        f"error: run {result.status}: {result.reason}\n"
        f"continue it with: skillbench run {args.config} --resume -o {result.run_dir}",
        file=sys.stderr,
    )
    return EXIT_ERROR


def adaptive_line(cells: Sequence[CellFields]) -> str | None:
    """How many calls adaptive repeats saved (None: the run asked every repeat)."""
    from skillbench.metrics import calls_saved

    saved = calls_saved(c.repeats for c in cells)
    if saved is None:
        return None
    return f"adaptive repeats: {saved:,} repeat(s) settled early and skipped (calls saved)"


def interrupted_message(config: str, run_dir: Path) -> str:
    """What Ctrl-C leaves: the answered decisions kept in ``run_dir`` by outcome, the
    errored ones ``--resume`` redoes, and how to continue."""
    from collections import Counter

    from skillbench.results import RESULTS, read_rows
    from skillbench.types import OUTCOMES, UNANSWERED

    rows = {r.row_key: r for r in read_rows(run_dir / RESULTS)}.values()
    counts = Counter(r.outcome for r in rows)
    kept = sum(n for o, n in counts.items() if o not in UNANSWERED)
    errors = sum(counts[o] for o in UNANSWERED)
    by_outcome = ", ".join(
        f"{counts[o]:,} {o}" for o in OUTCOMES if counts[o] and o not in UNANSWERED
    )
    return (
        f"interrupted: {kept:,} decision(s) kept in {run_dir}"
        + (f" ({by_outcome})" if by_outcome else "")
        + (f"; {errors:,} without an answer, redone by --resume" if errors else "")
        + f"\ncontinue with: skillbench run {config} --resume -o {run_dir}"
    )


def with_model(config: RunConfig, model: str) -> RunConfig:
    """``config`` with ``model`` in every litellm selector (an error when it has none)."""
    from skillbench._errors import SkillbenchError

    if not any(s.type == "litellm" for s in config.selectors):
        raise SkillbenchError(f"--model {model}: the config has no litellm selector")
    return _in_litellm_selectors(config, "model", model)


def with_labels(config: RunConfig, labels: Path) -> RunConfig:
    """``config`` scoring against the label overrides in ``labels`` (read when the grid is
    built, so a bad line is reported with the requests)."""
    from skillbench._errors import InputError, Location

    if not labels.is_file():
        raise InputError(Location(str(labels)), "--labels: file not found")
    return config.model_copy(update={"labels": str(labels.resolve())})


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


def _report(run: Run) -> Path | None:
    """Write the report; never fatal, since the results it reads are already on disk."""
    from skillbench.report import write_report

    try:
        written = write_report(run)
    except Exception as exc:
        warn(f"report not written ({type(exc).__name__}: {exc}); results are in {run.path}")
        return None
    return next((p for p in written if p.name == "report.html"), None)


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def _short(metric: str) -> str:
    """A metric's column header: ``false_invocation_rate`` → ``false inv``."""
    return metric.removesuffix("_rate").replace("invocation", "inv").replace("_", " ")


def summary_table(cells: Sequence[CellFields], width: int | None = None) -> str:
    """One line per summary cell, fitted to ``width`` (default: the terminal's).

    Settings and counts every cell shares go in one line above the table; the columns are
    the settings that vary, n (and errors, when any), the registry's headline metrics (short
    names) with accuracy's interval. Metric columns that still do not fit are left out from
    the right, and the table says so.
    """
    from skillbench.metrics import METRICS
    from skillbench.types import cell_fields

    width = width or shutil.get_terminal_size((120, 24)).columns
    fields = [
        *cell_fields(cells),
        "n",
        *(["errors"] if any(c.errors for c in cells) else []),
    ]
    same = (
        [k for k in fields if len({_fmt(getattr(c, k)) for c in cells}) == 1]
        if len(cells) > 1
        else []
    )
    keys = [k for k in fields if k not in same]
    metrics = [m.name for m in METRICS.values() if m.headline]
    header = [*keys, _short(metrics[0]), "95% CI", *(_short(m) for m in metrics[1:])]
    lines = [header]
    for c in cells:
        ci = c.interval(metrics[0])
        low, high = (None, None) if ci is None else ci
        lines.append(
            [
                *(_fmt(getattr(c, k)) for k in keys),
                _fmt(c.metric(metrics[0])),
                f"[{_fmt(low)}, {_fmt(high)}]",
                *(_fmt(c.metric(m)) for m in metrics[1:]),
            ]
        )
    widths = [max(len(row[i]) for row in lines) for i in range(len(header))]
    shown = len(header)
    while shown > len(keys) + 2 and sum(widths[:shown]) + 2 * (shown - 1) > width:
        shown -= 1
    out = []
    if same:
        out.append("every cell: " + "  ".join(f"{k}={_fmt(getattr(cells[0], k))}" for k in same))
    out += [
        "  ".join(v.ljust(w) for v, w in zip(row[:shown], widths, strict=False)).rstrip()
        for row in lines
    ]
    if shown < len(header):
        out.append(
            f"(left out to fit {width} columns: {', '.join(header[shown:])}; see the report)"
        )
    return "\n".join(out)


PLAN_LINES = (
    (
        "calls",
        "calls to make: {calls:,} of {unique_prompts:,} distinct prompts ({cached:,} cached)",
    ),
    (
        "est_prompt_tokens",
        "tokens (estimate): ~{est_prompt_tokens:,} prompt + ~{est_completion_tokens:,} completion",
    ),
    ("fork_calls", "fork calls: {fork_calls:,} ({fork_cached:,} cached)"),
    (
        "est_fork_prompt_tokens",
        "fork tokens (estimate): ~{est_fork_prompt_tokens:,} prompt + "
        "~{est_fork_completion_tokens:,} completion",
    ),
)
"""How a selector's plan figures read, each line shown when its first key is present."""


def _dollars(value: Any) -> str:
    return "unknown (no price for the model)" if value is None else f"~${value:,.4f}"


def plan_lines(plan: Mapping[str, Any]) -> list[str]:
    """A selector's ``--dry-run`` figures as sentences; keys this knows nothing of are listed
    as they are."""
    lines = [text.format(**plan) for key, text in PLAN_LINES if key in plan]
    if "est_cost_usd" in plan:
        cap = plan.get("max_cost_usd")
        limit = "" if cap is None else f" (spend cap ${cap:,.2f})"
        lines.append(f"cost (estimate): {_dollars(plan['est_cost_usd'])}{limit}")
    if "est_fork_cost_usd" in plan:
        lines.append(f"fork cost (estimate): {_dollars(plan['est_fork_cost_usd'])}")
    known = {k for text in PLAN_LINES for k in re.findall(r"{(\w+)", text[1])}
    known |= {"model", "queries", "est_cost_usd", "max_cost_usd", "est_fork_cost_usd"}
    lines += [f"{key}: {value}" for key, value in sorted(plan.items()) if key not in known]
    return lines


def print_plan(plan: DryRun) -> None:
    """The dry-run report: grid size, then per selector its cells and any cost estimate."""
    grid = plan.grid
    times = f" × {plan.repeats} repeats" if plan.repeats > 1 else ""
    print(
        f"run {plan.name}: {plan.requests:,} requests × {plan.cells:,} cells{times} "
        f"= {plan.decisions:,} decisions"
    )
    axes = ("catalogs", "profiles", "budgets", "orderings", "half_lives", "selectors")
    for key in (*axes, "catalog_sizes", "distractors"):
        values = getattr(grid, key)
        if values:
            print(f"  {key:<10} {', '.join(str(v) for v in values)}")
    for note in plan.notes:
        print(f"  note: {note}")
    for name, sel in plan.selectors.items():
        estimate = sel.estimate or {}
        model = estimate.get("model")
        what = sel.type + (f", {model}" if model else "")
        print(f"selector {name} ({what}): {sel.cells} cells, {sel.decisions:,} decisions")
        for line in plan_lines(estimate):
            print(f"  {line}")
    if plan.estimates:
        most = "; adaptive repeats: the most" if plan.adaptive else ""
        print(f"per model or live cell (every repeat counted{most}):")
        for cell in plan.estimates:
            print(f"  {estimate_line(cell)}")


def estimate_line(cell: CellEstimate) -> str:
    """One cell's calls, prompt tokens and dollars; a live cell's are lower bounds."""
    at_least = "≥ " if cell.lower_bound else ""
    text = (
        f"{cell.cell} ({cell.model}): {cell.calls:,} calls, "
        f"{at_least}~{cell.prompt_tokens:,} prompt tokens, {at_least}{_dollars(cell.cost_usd)}"
    )
    if cell.controls:
        text += f", and up to {cell.controls:,} positive-control calls"
    if cell.lower_bound:
        text += (
            " (listing and request only; the agent adds its own prompt and tools: "
            "`skillbench capture AGENT` keeps them for the estimate)"
        )
    return text
