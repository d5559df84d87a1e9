"""``skillbench catalog``: what loads, what overrides what, and what is wrong on disk."""

from __future__ import annotations

import argparse
import json
from typing import Any

from skillbench._sanitize import printable
from skillbench.catalog import (
    SOURCE_KINDS,
    Catalog,
    Diagnostic,
    Override,
    Skill,
    load_catalog,
)
from skillbench.cli._common import EXIT_OK, add_cwd, add_format, add_sources, env_default
from skillbench.listing import PROFILES

HELP = "load skill sources and show the deduplicated catalog"
DESCRIPTION = f"""\
Load skill sources the way an agent profile would and show the resulting catalog:
every skill with its source and status (active, inactive: a `paths` skill with no
matching file under --cwd, disabled: disable-model-invocation), every override, and
every diagnostic. Diagnostics never fail the command.

SOURCE is a directory (SKILL.md folders, skill.json folders, flat *.md), a .md,
.json or .jsonl file, optionally prefixed by its kind: KIND=PATH with KIND one of
{", ".join(SOURCE_KINDS)} (default: project).

examples:
  skillbench catalog ../shared/data/catalogs/superpowers
  skillbench catalog bundled=./builtin project=./.claude/skills --profile {{agent}}
  skillbench catalog ./skills --cwd . --format json
"""


def description() -> str:
    """The help text, its example naming the first default agent."""
    from skillbench.agentspec import default_agents

    return DESCRIPTION.format(agent=default_agents()[0].name)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_sources(parser)
    parser.add_argument(
        "--profile",
        choices=PROFILES.names(),
        default=env_default("profile", "codebot"),
        help="precedence rules to apply (default: codebot) [env: SKILLBENCH_PROFILE]",
    )
    add_cwd(parser)
    add_format(parser, ["text", "json"], "text")


def _skill_json(catalog: Catalog, skill: Skill) -> dict[str, Any]:
    return {
        "name": skill.name,
        "source": skill.source,
        "path": skill.path,
        "status": catalog.status(skill),
        "description": skill.description,
        "context": skill.context,
        "when_to_use": skill.when_to_use,
        "argument_hint": skill.argument_hint,
        "aliases": list(skill.aliases),
        "paths": list(skill.paths),
        "user_invocable": skill.user_invocable,
        "disable_model_invocation": skill.disable_model_invocation,
        "allowed_tools": list(skill.allowed_tools),
        "agent": skill.agent,
        "model": skill.model,
        "effort": skill.effort,
        "version": skill.version,
        "tags": list(skill.tags),
        "trigger_keywords": list(skill.trigger_keywords),
        "priority": skill.priority,
        "body_chars": skill.body_chars,
    }


def _override_json(override: Override) -> dict[str, Any]:
    return {
        "name": override.name,
        "winner": {"source": override.winner.source, "path": override.winner.path},
        "loser": {"source": override.loser.source, "path": override.loser.path},
        "reason": override.reason,
    }


def _diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    """Diagnostics may name files the loader refused for their names: escape those."""
    return {
        "path": printable(d.path),
        "line": d.line,
        "reason": printable(d.reason),
        "severity": d.severity,
        "field": d.field,
    }


def to_json(catalog: Catalog) -> dict[str, Any]:
    """The ``--format json`` document."""
    return {
        "profile": catalog.profile,
        "cwd": None if catalog.cwd is None else printable(catalog.cwd),
        "skills": [_skill_json(catalog, s) for s in catalog.skills],
        "overrides": [_override_json(o) for o in catalog.overrides],
        "diagnostics": [_diagnostic_json(d) for d in catalog.diagnostics],
    }


def to_text(catalog: Catalog) -> str:
    """A table of skills, then overrides and diagnostics, then a one-line summary.

    Catalog strings were sanitised at load; ``printable`` still guards the terminal.
    """
    rows = [("NAME", "SOURCE", "STATUS", "PATH")]
    rows += [
        (printable(s.name), s.source, catalog.status(s), printable(s.path or ""))
        for s in catalog.skills
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join([*(row[i].ljust(widths[i]) for i in range(3)), row[3]]) for row in rows]
    if catalog.overrides:
        lines += ["", "overrides:"] + [
            f"  {printable(o.name)}: {printable(o.reason)}" for o in catalog.overrides
        ]
    if catalog.diagnostics:
        lines += ["", "diagnostics:"] + [f"  {d}" for d in catalog.diagnostics]
    statuses = [catalog.status(s) for s in catalog.skills]
    counts = ", ".join(f"{statuses.count(k)} {k}" for k in ("active", "inactive", "disabled"))
    lines += [
        "",
        f"{len(catalog.skills)} skills ({counts}), {len(catalog.overrides)} overrides, "
        f"{len(catalog.diagnostics)} diagnostics (profile {catalog.profile})",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    catalog = load_catalog(args.sources, profile=args.profile, cwd=args.cwd)
    if args.format == "json":
        print(json.dumps(to_json(catalog), indent=2, ensure_ascii=False))
    else:
        print(to_text(catalog))
    return EXIT_OK
