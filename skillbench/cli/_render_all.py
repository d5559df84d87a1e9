"""``skillbench render SOURCE… --profile all``: one catalog as every shipped agent lists it."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from skillbench.catalog import parse_source_arg
from skillbench.cli._common import EXIT_OK
from skillbench.cli._render import skill_rows
from skillbench.listing import AgentView, Divergence, agent_views, divergences

COLUMNS = ("full", "truncated", "name_only", "dropped", "hidden", "disabled", "inactive")
HEADS = ("FULL", "CUT", "NAMES", "DROPPED", "HIDDEN", "DISABLED", "INACTIVE")


def _tokens(text: str, model: str | None) -> int:
    from skillbench.tokens import DEFAULT_TOKEN_MODEL, count_tokens

    return count_tokens(text, model or DEFAULT_TOKEN_MODEL)


def _agent_json(view: AgentView, model: str | None) -> dict[str, Any]:
    listing = view.listing
    counts: Counter[str] = Counter(r.fate for r in view.rows)
    counts["not_found"] = len(view.not_found)
    return {
        "profile": view.profile,
        "agent_version": view.version,
        "budget": listing.budget,
        "used": listing.used,
        "chars": listing.chars,
        "tokens": _tokens(listing.text, model),
        "counts": dict(sorted(counts.items())),
        "skills": skill_rows(listing, view.rows)
        + [
            {
                "name": n.skill.name,
                "source": n.skill.source,
                "status": "not_found",
                "position": None,
                "chars": 0,
                "why": n.reason,
            }
            for n in view.not_found
        ],
        "rejected": list(view.rejected),
        "text": listing.text,
    }


def _divergence_json(d: Divergence) -> dict[str, Any]:
    return {
        "skill": d.name,
        "path": d.path,
        "kind": d.kind,
        "field": d.field,
        "agents": list(d.agents),
        "detail": d.detail,
    }


def _table(agents: list[dict[str, Any]], differ: list[Divergence]) -> str:
    width = max(len("AGENT"), *(len(a["profile"]) for a in agents))
    head = (
        f"{'AGENT':<{width}}  VERSION  " + "  ".join(HEADS) + "  NOT FOUND  REJECTED  CHARS  TOKENS"
    )
    lines = [head]
    for a in agents:
        cells = "  ".join(
            f"{a['counts'].get(c, 0):>{len(h)}}" for c, h in zip(COLUMNS, HEADS, strict=True)
        )
        lost, rejected = a["counts"]["not_found"], len(a["rejected"])
        lines.append(
            f"{a['profile']:<{width}}  {a['agent_version']:<7}  {cells}  "
            f"{lost:>9}  {rejected:>8}  {a['chars']:>5}  {a['tokens']:>6}"
        )
    for a in agents:
        for s in a["skills"]:
            if s["status"] not in ("full", "overridden"):
                lines.append(f"{a['profile']}: {s['name']} {s['status']}: {s['why']}")
        lines += [f"{a['profile']}: rejected {r}" for r in a["rejected"]]
    if differ:
        lines.append("Listed differently from what the author wrote:")
        lines += [f"  {d.name} ({d.path}): {d.message}" for d in differ]
    return "\n".join(lines) + "\n"


def run_all(args: argparse.Namespace) -> int:
    """Every verified agent's view of the sources: counts per status, characters and tokens,
    each skill not listed in full with the agent's reason, then each skill some agents read,
    reach or list differently from what its author wrote, naming those agents."""
    specs = [parse_source_arg(s) for s in args.sources]
    views = agent_views(specs, budget=args.budget, cwd=args.cwd)
    agents = [_agent_json(v, args.model) for v in views]
    differ = divergences(specs, views, cwd=args.cwd)
    if args.format == "json":
        payload = {"agents": agents, "divergences": [_divergence_json(d) for d in differ]}
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(_table(agents, differ))
    return EXIT_OK
