"""``skillbench tune``: rewrite skill descriptions on a train split, judge them on a held-out
test split."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from skillbench.cli._common import (
    EXIT_ERROR,
    EXIT_OK,
    add_format,
    add_output,
    add_quiet,
    env_default,
    positive_int,
    warn,
)
from skillbench.types import JsonObject

HELP = "improve skill descriptions on a train split, report the held-out test gain"
DESCRIPTION = """\
Split the config's requests into train and test (seeded, stratified by expected skill,
negatives included). Each round finds the skills behind the most train errors, asks the
proposer for candidate descriptions, replays every candidate catalog on train with the
config's selectors, profiles, budgets and orderings (so a description that crowds others
out of the budget, or that a profile cuts, is judged by what the listing really shows) and
keeps the best; it stops after --iterations rounds or when nothing improves. Only then are
the base and the winner replayed on the test split, which the proposer never saw.

Proposers: `offline`, a baseline that writes no new text (it adds sentences from the
skill's own body that carry words its rivals lack, drops sentences built on rivals' words,
respects the profiles' caps), or a litellm model string (same cache, retries and spend cap
as the litellm selector; --dry-run sends nothing).

RewriteVerdict: apply only when the held-out test gain is positive and its exact McNemar p is
below 0.05; the train gain chose the change and cannot confirm it.

Output (-o, default reports/<config>-tune): catalog/ (the variant: only rewritten files
differ), changes.diff (paths relative to the catalog's git repository, else to its source
folder: `git apply` it there), report.md and report.json (the verdict, train and test gains,
exact McNemar, paired bootstrap interval, unwanted invocations, per skill), prompts/
(everything the proposer was shown), train.jsonl / test.jsonl. --apply writes the winning
descriptions back into the original files, each first copied under OUTPUT/backup.

exit codes: 0 done, 1 error or stopped at the proposer's spend cap (results so far written).

examples:
  skillbench tune configs/rewrite-ab.yaml --catalog base --iterations 3
  skillbench tune configs/quickstart.yaml --skills debug,fix-flaky-test --proposer offline
  skillbench tune my.yaml --proposer openai/gpt-4o-mini --max-cost-usd 0.50 --dry-run
  skillbench tune skills/ --iterations 2     # the skills' trigger sets, embedding selector
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "config",
        metavar="CONFIG",
        help="run config (YAML), or skills with trigger eval sets (a skill folder, one of its "
        "eval files, or a folder of skills): their validation splits are the blind test split",
    )
    parser.add_argument("--catalog", help="catalog variant of the config to tune (default: first)")
    parser.add_argument(
        "--skills", help="comma-separated skills that may change (default: every skill)"
    )
    parser.add_argument("--iterations", type=positive_int, default=3, help="most rounds (3)")
    parser.add_argument(
        "--focus", type=positive_int, default=3, help="skills rewritten per round (3)"
    )
    parser.add_argument(
        "--candidates", type=positive_int, default=3, help="candidates per skill and round (3)"
    )
    parser.add_argument(
        "--test-fraction",
        type=float,
        default=0.4,
        help="share of each stratum held out as test (0.4)",
    )
    parser.add_argument("--seed", type=int, help="split seed (default: the config's seed)")
    parser.add_argument(
        "--proposer",
        default=env_default("proposer", "offline"),
        help="`offline` or a litellm model string (default: offline) [env: SKILLBENCH_PROPOSER]",
    )
    parser.add_argument("--api-base", help="model proposer: endpoint URL")
    parser.add_argument("--api-key-env", help="model proposer: env var holding the API key")
    parser.add_argument(
        "--max-cost-usd",
        type=float,
        default=env_default("max_cost_usd"),
        help="model proposer: stop once this many dollars are spent [env: SKILLBENCH_MAX_COST_USD]",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="model proposer: do not read or write the cache"
    )
    parser.add_argument(
        "-j",
        "--max-concurrency",
        type=positive_int,
        default=env_default("max_concurrency", 8),
        help="concurrent calls per endpoint of model selectors (8) "
        "[env: SKILLBENCH_MAX_CONCURRENCY]",
    )
    parser.add_argument("--apply", action="store_true", help="write the winner back (backups kept)")
    parser.add_argument(
        "--dry-run", action="store_true", help="print the split and the work bounds; run nothing"
    )
    add_output(parser, "output directory (default: reports/<config name>-tune)")
    add_format(parser, ["text", "json"], "text")
    add_quiet(parser)


def _model_options(args: argparse.Namespace) -> JsonObject:
    options: JsonObject = {}
    if args.proposer == "offline":
        return options
    for key in ("api_base", "api_key_env"):
        if getattr(args, key):
            options[key] = getattr(args, key)
    if args.max_cost_usd is not None:
        options["max_cost_usd"] = float(args.max_cost_usd)
    if args.no_cache:
        options["cache"] = False
    return options


def _inputs(args: argparse.Namespace) -> tuple[Any, Any, tuple[str, ...]]:
    """The config, the split to keep (None: tune draws one) and the skills with sets."""
    from skillbench.authoring import EvalOptions, eval_set_inputs, is_eval_input
    from skillbench.replay import load_config

    if not is_eval_input(args.config):
        return load_config(args.config), None, ()
    out = Path(args.output or "reports/eval-sets-tune")
    inputs = eval_set_inputs([args.config], out, EvalOptions(repeats=1))
    return inputs.config, inputs.split, inputs.skills


def run(args: argparse.Namespace) -> int:
    from skillbench._output import output_dir
    from skillbench._sanitize import printable
    from skillbench.authoring import (
        TuneOptions,
        apply_changes,
        backup_folder,
        make_proposer,
        report_json,
        tune,
        tune_plan,
        write_report,
    )
    from skillbench.cache import default_cache_root
    from skillbench.selectors import SelectorEnv

    config, split, with_sets = _inputs(args)
    options = TuneOptions(
        catalog=args.catalog,
        skills=tuple(s.strip() for s in (args.skills or "").split(",") if s.strip()) or with_sets,
        iterations=args.iterations,
        focus=args.focus,
        candidates=args.candidates,
        test_fraction=args.test_fraction,
        seed=args.seed,
        max_concurrency=args.max_concurrency,
        split=split,
    )
    env = SelectorEnv(default_cache_root(), config.seed, Path(args.config).resolve().parent)
    proposer = make_proposer(args.proposer, _model_options(args), env)
    if args.dry_run:
        plan = {"proposer": args.proposer, **tune_plan(config, options)._asdict()}
        print(
            json.dumps(plan, indent=2)
            if args.format == "json"
            else "\n".join(f"{k}: {v}" for k, v in plan.items())
        )
        return EXIT_OK
    out = output_dir(args.output or f"reports/{config.name}-tune")
    say = None if args.quiet else (lambda m: print(m, file=sys.stderr))
    result = tune(config, proposer, out, options, progress=say)
    for skipped in result.copy.skipped if result.copy else ():
        warn(printable(skipped))
    data = write_report(result, out, args.proposer)
    if args.apply:
        backups = backup_folder(out)
        changed = len(result.copy.changed_files()) if result.copy else 0
        written: list[str] = []
        try:
            for original, backup in apply_changes(result, backups):
                written.append(printable(str(original)))
                print(f"rewrote {written[-1]} (backup: {backup})", file=sys.stderr)
        except KeyboardInterrupt:
            print(
                f"tune --apply interrupted after {len(written)} of {changed} files"
                + (f" ({', '.join(written)})" if written else "")
                + f"; the originals of the files it reached are under {backups}, "
                "the other files are as they were",
                file=sys.stderr,
            )
            raise
    if args.format == "json":
        print(report_json(data), end="")
    else:
        train, test = data.train, data.test
        print(
            f"train gain {train.gain:+.4f} (p = {train.p_value:.3g}); held-out test gain "
            f"{test.gain:+.4f} (p = {test.p_value:.3g}, 95% CI "
            f"[{test.gain_ci95[0]:+.4f}, {test.gain_ci95[1]:+.4f}])"
        )
        verdict = data.verdict
        print(f"verdict: {'apply' if verdict.apply else 'do not apply'}: {verdict.reason}")
        print(f"report: {out / 'report.md'}; diff: {out / 'changes.diff'}")
    if result.stopped:
        print(f"stopped: {result.stopped}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK
