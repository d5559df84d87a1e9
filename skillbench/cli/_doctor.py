"""``skillbench doctor``: can every model of a config be called, before paying for a run?"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillbench.cli._common import EXIT_ERROR, EXIT_OK, add_format

if TYPE_CHECKING:
    from skillbench.replay import RunConfig
    from skillbench.selectors import Query

HELP = "check that each model of a config can be called: keys, endpoint, tool support"
DESCRIPTION = """\
Run every selector's pre-flight, the same one `skillbench run` does before its first paid
call: the key variables the model needs are set, litellm does not list the model as lacking
tool calls, and the endpoint answers one small request carrying the Skill tool schema (a
fraction of a cent on a cloud model). A server that is down fails in seconds. Then each
model gets the run's largest prompt (the grid's longest listing and longest request; with a
retrieve stage, the longest listing of a request's top k) with the skill tool required: it
fails when that prompt does not fit the model's context, or when no tool call comes back (a
server that silently drops tools). Selectors with nothing outside skillbench to check
(oracle, embedding …) are listed as such.

Exit codes: 0 every selector is ready, 1 at least one is not (or the config is invalid).

examples:
  skillbench doctor configs/litellm-example.yaml
  skillbench doctor configs/litellm-example.yaml --format json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="run config (YAML)")
    add_format(parser, ["text", "json"], "text")


def run(args: argparse.Namespace) -> int:
    from skillbench.cache import default_cache_root
    from skillbench.replay import load_config
    from skillbench.selectors import SELECTORS, Checkable, Probeable, SelectorEnv

    config = load_config(args.config)
    base = config.path.parent if config.path else Path.cwd()
    env = SelectorEnv(default_cache_root(), config.seed, base, max_concurrency=1, quiet=True)
    results: list[dict[str, Any]] = []
    largest: dict[str, tuple[Query, str]] | None = None
    for sel in config.selectors:
        selector = SELECTORS.get(sel.type)(sel.params, env)
        checks = selector.preflight() if isinstance(selector, Checkable) else []
        if isinstance(selector, Probeable) and all(c.ok for c in checks):
            largest = largest if largest is not None else largest_queries(config)
            if sel.label in largest:
                checks.append(selector.probe_listing(*largest[sel.label]))
        results.append(
            {
                "selector": sel.label,
                "type": sel.type,
                "model": sel.params.get("model"),
                "ok": all(c.ok for c in checks),
                "checked": isinstance(selector, Checkable),
                "checks": [asdict(c) for c in checks],
            }
        )
    ready = all(r["ok"] for r in results)
    if args.format == "json":
        print(json.dumps({"config": str(args.config), "ok": ready, "selectors": results}, indent=2))
    else:
        print(report(results))
    return EXIT_OK if ready else EXIT_ERROR


def largest_queries(config: RunConfig) -> dict[str, tuple[Query, str]]:
    """Per selector: its cells' longest listing with the longest request, and where it is.

    A selector with a retrieve stage sees each request's top k only, so its probe is the
    longest of those retrieved listings (with its own request), not the full listing.
    """
    from skillbench.replay import RetrieveStages, build_grid, resolve_experiment
    from skillbench.selectors import Query

    experiment = resolve_experiment(config)
    grid = build_grid(experiment.grid)
    if not grid.requests:
        return {}
    longest = max(grid.requests, key=lambda r: (len(r.text), r.id))
    stages = RetrieveStages(
        experiment.selectors, experiment.selector_env(max_concurrency=1, quiet=True), grid.requests
    )
    out: dict[str, tuple[Query, str]] = {}
    sizes: dict[str, int] = {}
    for cell in grid.cells:
        plan, name = grid.plans[cell], cell.key.selector
        top = stages.top(name, plan)
        if top is None:
            request, listing, what = longest, plan.render({}), "listing"
        else:
            request, listing = max(
                ((r, plan.render({}, only=top[r.id])) for r in grid.requests),
                key=lambda pair: (len(pair[1].text), len(pair[0].text), pair[0].id),
            )
            what = f"retrieved listing ({len(top[request.id])} skills, request {request.id})"
        if len(listing.text) > sizes.get(name, -1):
            sizes[name] = len(listing.text)
            where = f"cell {cell.label}: {len(listing.text):,} characters of {what}"
            out[name] = (Query(request, listing, 0, cell.label), where)
    return out


def report(results: Sequence[Mapping[str, Any]]) -> str:
    """One ``PASS``/``FAIL`` line per selector, then one line per check it ran."""
    lines = []
    for r in results:
        what = f"{r['type']} {r['model']}" if r["model"] else r["type"]
        if not r["checked"]:
            lines.append(f"-     {r['selector']} ({what}): nothing outside skillbench to check")
            continue
        lines.append(f"{'PASS' if r['ok'] else 'FAIL'}  {r['selector']} ({what})")
        for c in r["checks"]:
            lines.append(f"      {'ok ' if c['ok'] else 'BAD'} {c['step']:<9}{c['message']}")
    failed = sum(not r["ok"] for r in results)
    lines.append(
        f"{failed} of {len(results)} selectors not ready" if failed else "every selector is ready"
    )
    return "\n".join(lines)
