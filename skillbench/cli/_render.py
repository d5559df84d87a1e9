"""``skillbench render``: exactly the listing a profile would show the model."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, get_args

from skillbench._errors import SkillbenchError
from skillbench.cli._common import (
    EXIT_OK,
    add_cwd,
    add_format,
    add_profile_and_budget,
    add_profile_options,
    add_quiet,
    add_sources,
    env_default,
    key_values,
)
from skillbench.listing import (
    ORDERINGS,
    PROFILES,
    EntryStatus,
    Explanation,
    Listing,
    explain,
    render_listing,
)
from skillbench.usage import USAGE_MODELS, UsageTracker

HELP = "render the skill listing a profile shows the model"
DESCRIPTION = """\
Load skill sources as the profile would and print the listing the model sees, byte for
byte (text), or the listing plus every skill's fate (json: status full, truncated,
name_only, dropped, disabled, inactive, hidden or overridden, 0-based position and the rule
that decided it). --explain prints one line per skill with that rule instead of the listing.
In text mode a one-line summary, and any warning the agent would show, go to stderr unless
--quiet. Sources may be given in any order: the profile's own source order decides.

--profile all: the same sources as every shipped agent skillbench has verified lists them
(one row per agent: skills in full, cut, names only, dropped, hidden by the agent's rules,
not found because the agent does not read their folder, files its loader rejects; the
listing's characters and tokens), then every skill an agent does not list in full and why.

Profile options (--option KEY=VALUE, repeatable; the value is read as JSON when it parses):
{options}.

Each profile lists in its agent's own order unless --order says otherwise (docs/profiles/
AGENT.md says which; with the snapshot `skillbench capture` keeps in the cache, the agent's
built-in skills take their place in it). The usage ordering reads scores from --usage (a
JSON file {{"skill": {{"count": n, "last_used": "<ISO-8601>"}}}} or
{{"skill": {{"events": [...]}}}}) decayed to --now.

examples:
  skillbench render ../shared/data/catalogs/superpowers
  skillbench render project=./skills --profile {second} --budget 2000 --format json
  skillbench render user={user} --profile {first} --explain \\
      --option context_window=1000000
  skillbench render ./skills --usage usage.json --half-life 1d --now 2025-03-01T12:00:00Z
  skillbench render project=.claude/skills --profile all --format json
"""


def description() -> str:
    """The help text, with each profile's options and the examples' agents from the
    registries."""
    from textwrap import fill

    from skillbench.agentspec import default_agents

    flags = {"budget", "model"}
    options = "; ".join(
        f"{name} {', '.join(o for o in PROFILES.get(name).options if o not in flags)}"
        for name in PROFILES.names()
        if "@" not in name and set(PROFILES.get(name).options) - flags
    )
    first, second = (default_agents() * 2)[:2]
    return DESCRIPTION.format(
        options=fill(options, 92, break_on_hyphens=False),
        first=first.name,
        second=second.name,
        user=first.reads("user")[0] if first.reads("user") else "./skills",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_sources(parser)
    add_profile_and_budget(
        parser, [*PROFILES.names(), "all"], "loading rules and listing format; all: every agent"
    )
    parser.add_argument(
        "--order",
        default=env_default("order"),
        help=f"ordering: {', '.join(ORDERINGS.names())} (rotate:K) (default: the profile's "
        "own: the agent's order where verified, else usage) [env: SKILLBENCH_ORDER]",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random ordering")
    parser.add_argument("--usage", help="usage history JSON file (default: no usage)")
    parser.add_argument("--half-life", default="7d", help="usage half-life, e.g. 12h, 7d, inf")
    parser.add_argument(
        "--usage-model", choices=USAGE_MODELS, default="last_use", help="usage score model"
    )
    parser.add_argument("--now", help="ISO-8601 time usage decays to (default: now)")
    add_cwd(parser)
    parser.add_argument(
        "--model",
        default=env_default("model"),
        help="tokenizer model for the json token count (default: gpt-4o) [env: SKILLBENCH_MODEL]",
    )
    add_profile_options(parser, "e.g. context_window=1000000")
    parser.add_argument(
        "--explain", action="store_true", help="print why each skill is shown or not, by rule"
    )
    add_format(parser, ["text", "json"], "text")
    add_quiet(parser)


def _scores(args: argparse.Namespace) -> dict[str, float]:
    if not args.usage:
        return {}
    tracker = UsageTracker.load(args.usage, args.half_life, model=args.usage_model)
    if args.now is None:
        return tracker.scores(datetime.now(UTC))
    try:
        now = datetime.fromisoformat(args.now.replace("Z", "+00:00"))
    except ValueError:
        raise SkillbenchError(f"--now: invalid ISO-8601 time {args.now!r}") from None
    return tracker.scores(now)


def _summary(listing: Listing) -> str:
    counts = Counter(e.status for e in listing.entries)
    parts = ", ".join(
        f"{status} {counts[status]}" for status in get_args(EntryStatus) if counts[status]
    )
    size = (
        f"{listing.used:,} of {listing.budget:,} budget (wrapper not counted)"
        if listing.budget is not None
        else ""
    )
    return (
        f"{listing.profile}: shown {len(listing.shown_names)} of {len(listing.entries)} "
        f"skills ({parts}); {listing.chars:,} chars{'; ' + size if size else ''}"
    )


def _explain_text(rows: list[Explanation]) -> str:
    width = max((len(r.name) for r in rows), default=4)
    lines = [f"{'NAME':<{width}}  {'SOURCE':<8}  {'STATUS':<10}  POS  WHY"]
    for r in rows:
        pos = "-" if r.position is None else str(r.position)
        lines.append(f"{r.name:<{width}}  {r.source:<8}  {r.fate:<10}  {pos:>3}  {r.why}")
    return "\n".join(lines) + "\n"


def skill_rows(listing: Listing, rows: Sequence[Explanation]) -> list[dict[str, Any]]:
    """Each skill's fate as the json formats print it."""
    chars = {e.name: e.chars for e in listing.entries}
    return [
        {
            "name": r.name,
            "source": r.source,
            "status": r.fate,
            "position": r.position,
            "chars": chars.get(r.name, 0) if r.fate != "overridden" else 0,
            "why": r.why,
        }
        for r in rows
    ]


def _json(listing: Listing, rows: list[Explanation], args: argparse.Namespace) -> dict[str, Any]:
    from skillbench.tokens import DEFAULT_TOKEN_MODEL, count_tokens

    return {
        "profile": listing.profile,
        "budget": listing.budget,
        "used": listing.used,
        "ordering": args.order,
        "text": listing.text,
        "warning": listing.warning,
        "chars": listing.chars,
        "tokens": count_tokens(listing.text, args.model or DEFAULT_TOKEN_MODEL),
        "skills": skill_rows(listing, rows),
    }


def run(args: argparse.Namespace) -> int:
    from skillbench.catalog import load_catalog

    if args.profile == "all":
        from skillbench.cli._render_all import run_all

        return run_all(args)
    options = key_values(args.option, "--option", parse_json=True)
    args.order = args.order or PROFILES.get(args.profile).ordering
    catalog = load_catalog(args.sources, profile=args.profile, cwd=args.cwd)
    listing = render_listing(
        catalog.skills,
        profile=args.profile,
        budget=args.budget,
        ordering=args.order,
        scores=_scores(args),
        inactive=catalog.inactive,
        seed=args.seed,
        options=options,
    )
    rows = explain(listing, catalog, options)
    if args.format == "json":
        print(json.dumps(_json(listing, rows, args), indent=2, ensure_ascii=False))
        return EXIT_OK
    if args.explain:
        sys.stdout.write(_explain_text(rows))
    else:
        sys.stdout.write(listing.text + "\n" if listing.text else "")
    if not args.quiet:
        print(_summary(listing), file=sys.stderr)
        if listing.warning:
            print(f"warning: {listing.warning}", file=sys.stderr)
    return EXIT_OK
