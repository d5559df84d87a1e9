"""Run directories for executor tests: a devtools config and "same run, timings aside"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DEVTOOLS = REPO / "datasets" / "devtools"

DEVTOOLS_INPUTS = f"""\
catalogs:
  devtools:
    - {{path: {DEVTOOLS}/skills/bundled, source: bundled}}
    - {{path: {DEVTOOLS}/skills/user, source: user}}
    - {{path: {DEVTOOLS}/skills/project, source: project}}
    - {{path: {DEVTOOLS}/skills/plugin, source: plugin}}
cwd: {DEVTOOLS}/workspace
requests: {DEVTOOLS}/requests.jsonl
"""
"""The bundled devtools benchmark's catalog, workspace and requests, as config lines."""

CONFIG = (
    "name: executors\n"
    + DEVTOOLS_INPUTS.replace("{", "{{").replace("}", "}}")
    + """\
budgets: {budgets}
orderings: [usage, alpha]
selectors: {selectors}
seed: 0
"""
)
"""By default oracle, lexical and embedding over 2 budgets × 2 orderings. Usage records
what each selector chose, so the usage-ordered cells depend on their own decisions and the
alpha-ordered ones do not."""

TIMINGS = {"results.jsonl": ("latency_ms",), "manifest.json": ("started_at", "ended_at")}
"""Fields that measure time: the only ones two runs of one config may disagree on."""


def devtools_config(
    directory: Path,
    extra: str = "",
    *,
    budgets: str = "[2000, 4000]",
    selectors: str = "[{type: oracle}, {type: lexical}, {type: embedding}]",
) -> Path:
    """The config file, written into ``directory``."""
    path = directory / "executors.yaml"
    text = CONFIG.format(budgets=budgets, selectors=selectors)
    path.write_text(text + extra, encoding="utf-8")
    return path


def run_files(run_dir: Path) -> dict[str, Any]:
    """Every file the engine writes, timing fields dropped; the rest compared as bytes."""
    out: dict[str, Any] = {}
    for name in ("results.jsonl", "summary.json", "manifest.json", "config.yaml"):
        text = (run_dir / name).read_text(encoding="utf-8")
        if name == "results.jsonl":
            out[name] = [_drop(json.loads(line), name) for line in text.splitlines()]
        elif name == "manifest.json":
            out[name] = _drop(json.loads(text), name)
        else:
            out[name] = text
    return out


def _drop(record: dict[str, Any], name: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in TIMINGS[name]}
