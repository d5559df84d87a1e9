"""``skillbench plan``: what each agent shows of a catalog, how that changes as usage decays,
the smallest budget that fits, and description edits that make it fit."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.agentspec import default_agents
from skillbench.cli._common import (
    EXIT_OK,
    add_cwd,
    add_format,
    add_profile_options,
    add_quiet,
    add_sources,
    env_default,
    key_values,
    positive_int,
)

HELP = "plan a catalog's listing budget per agent: today, over weeks of decay, what fits, a trim"
DESCRIPTION = """\
For each agent profile: the budget in the agent's own units and how it is derived (window ×
fraction, environment variable, setting); every skill's fate (full, cut to N characters,
name only, hidden, not loaded) and the rule behind it; the listing's tokens per turn, per
session and its share of the window. Then the same listing each week for --weeks weeks as a
usage history decays with no new use (--usage: skillbench's usage.json from `import`, or an
agent's own file holding a `skillUsage` object), the smallest budget at which every
description is listed in full with the value of each of the agent's settings that gives it,
and the coverage curve.

--trim plans description edits that make every description fit at the budget (the default,
or --budget), keeping the words that tell a skill from its nearest neighbours; with
--requests it is judged by replay (embedding and lexical selectors; paired, exact McNemar
and bootstrap intervals) at that budget and with room for everything, and only a plan that
costs nothing beyond noise with room for everything is proposed. -o DIR receives plan.json,
plan.md, plan.html, the curves as PNG and changes.diff; --apply writes a proposed plan into
the skill files, the originals kept under DIR/backup. Offline; schema: docs/plan.md.

examples:
  skillbench plan ../shared/data/catalogs {profiles}
  skillbench plan ./skills --profile all --usage usage.json --weeks 8
  skillbench plan ./skills --profile {first} --model MODEL --format json
  skillbench plan user=datasets/devtools/skills/user project=datasets/devtools/skills/project \\
      --profile {first} --budget 9000 --trim \\
      --requests datasets/devtools/requests.jsonl -o plan/
"""


def description() -> str:
    """The help text, with the default agents from their records."""
    names = [s.name for s in default_agents()]
    return DESCRIPTION.format(profiles=" ".join(f"--profile {n}" for n in names), first=names[0])


FORMATS = ["markdown", "json", "html"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_sources(parser)
    parser.add_argument(
        "--profile",
        action="append",
        metavar="AGENT[@VERSION]",
        help="profile to plan (repeatable; `all`: every profile) (default: "
        + " and ".join(s.name for s in default_agents())
        + ")",
    )
    parser.add_argument(
        "--budget",
        type=positive_int,
        help="the budget in the agent's own units (characters or tokens, as the plan says "
        "beside it) (default: the agent's)",
    )
    parser.add_argument(
        "--model",
        default=env_default("model"),
        help="the agent's model (where its budget follows the model: its window and characters "
        "per token) and the "
        "tokenizer of token counts (default: gpt-4o's) [env: SKILLBENCH_MODEL]",
    )
    parser.add_argument("--window", type=positive_int, help="the model's context window in tokens")
    add_profile_options(parser, "given to each profile that takes it")
    parser.add_argument("--usage", help="usage history JSON (skillbench's or an agent's own)")
    parser.add_argument("--now", help="ISO-8601 time of day 0 (default: now)")
    parser.add_argument(
        "--weeks", type=int, default=4, help="weekly steps of decay to show (default: 4)"
    )
    parser.add_argument(
        "--turns", type=positive_int, default=10, help="turns of a session (default: 10)"
    )
    parser.add_argument("--trim", action="store_true", help="plan description edits that fit")
    parser.add_argument("--requests", help="labelled requests (JSONL) to judge the trim by")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")
    parser.add_argument("-o", "--output", help="directory for plan.*, PNGs and changes.diff")
    parser.add_argument(
        "--apply", action="store_true", help="write a proposed trim into the skill files"
    )
    add_cwd(parser)
    add_format(parser, FORMATS, "markdown")
    add_quiet(parser)


def _profiles(given: list[str] | None) -> tuple[str, ...]:
    from skillbench.listing import PROFILES

    names = given or [s.name for s in default_agents()]
    if "all" in names:
        return tuple(PROFILES.names())
    for name in names:
        PROFILES.get(name)
    return tuple(dict.fromkeys(names))


def _now(text: str | None) -> datetime:
    if text is None:
        return datetime.now(UTC)
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise SkillbenchError(f"--now: invalid ISO-8601 time {text!r}") from None
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _check(args: argparse.Namespace, profiles: tuple[str, ...]) -> None:
    if args.weeks < 0:
        raise SkillbenchError(f"--weeks: must be 0 or more, got {args.weeks}")
    if args.requests and not args.trim:
        raise SkillbenchError("--requests judges a trim plan: add --trim")
    if args.apply and not (args.trim and args.output):
        raise SkillbenchError("--apply needs --trim and -o DIR (where the backups go)")
    if args.apply and len(profiles) != 1:
        raise SkillbenchError("--apply: plan one profile (one --profile) to apply its trim")
    if args.requests and not Path(args.requests).is_file():
        raise SkillbenchError(f"--requests: {args.requests}: no such file")


def run(args: argparse.Namespace) -> int:
    from skillbench.catalog import parse_source_arg
    from skillbench.planner import Judging, PlanOptions, load_usage, plan_catalog

    profiles = _profiles(args.profile)
    _check(args, profiles)
    started = time.monotonic()

    def progress(message: str) -> None:
        if not args.quiet:
            print(f"plan: {message} ({time.monotonic() - started:.1f} s)", file=sys.stderr)

    options = PlanOptions(
        profiles=profiles,
        budget=args.budget,
        model=args.model,
        window=args.window,
        extra=key_values(args.option, "--option", parse_json=True),
        usage=load_usage(args.usage) if args.usage else None,
        usage_source=args.usage,
        now=_now(args.now),
        weeks=args.weeks,
        turns=args.turns,
        tokenizer=args.model or "gpt-4o",
        trim=args.trim,
        judging=Judging(Path(args.requests), Path(), cwd=args.cwd, seed=args.seed)
        if args.requests
        else None,
    )
    sources = [parse_source_arg(s) for s in args.sources]
    out = Path(args.output) if args.output else None
    with tempfile.TemporaryDirectory(prefix="skillbench-plan-") as scratch:
        work = (out / "work") if out is not None else Path(scratch)
        planned = plan_catalog(sources, options, cwd=args.cwd, work=work, progress=progress)
        _emit(planned, args, out)
    return EXIT_OK


def _emit(planned: object, args: argparse.Namespace, out: Path | None) -> None:
    from skillbench.authoring import copy_diff
    from skillbench.planner import Planned, plan_document
    from skillbench.report import to_html, to_markdown

    assert isinstance(planned, Planned)
    report = planned.report
    data = json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    draw = out is not None or args.format == "html"
    doc, figures = plan_document(report, draw=draw)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "plan.json").write_text(data, encoding="utf-8")
        (out / "plan.md").write_text(to_markdown(doc, image_dir="."), encoding="utf-8")
        (out / "plan.html").write_text(to_html(doc), encoding="utf-8")
        for figure in figures:
            if figure.png is not None:
                (out / f"{figure.name}.png").write_bytes(figure.png)
        diff = "".join(copy_diff(copy) for copy in planned.copies.values())
        (out / "changes.diff").write_text(diff, encoding="utf-8")
    if args.format == "json":
        sys.stdout.write(data)
    elif args.format == "html":
        sys.stdout.write(to_html(doc))
    else:
        sys.stdout.write(to_markdown(doc, image_dir=None))
    if args.apply and out is not None:
        _apply(planned, out)


def _apply(planned: object, out: Path) -> None:
    from skillbench.authoring import apply_copy, backup_folder
    from skillbench.planner import Planned

    assert isinstance(planned, Planned)
    for plan in planned.report.agents:
        copy = planned.copies.get(plan.profile)
        if plan.trim is None or copy is None:
            print(f"plan: {plan.profile}: nothing to apply", file=sys.stderr)
        elif not plan.trim.proposed:
            raise SkillbenchError(f"{plan.profile}: the trim is not proposed ({plan.trim.verdict})")
        else:
            for original, backup in apply_copy(copy, backup_folder(out)):
                print(f"plan: wrote {original} (backup {backup})", file=sys.stderr)
