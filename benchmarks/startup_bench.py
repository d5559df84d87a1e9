"""Start-up time of every command that calls no model, as a user runs it (a fresh process).

Each command runs on the bundled devtools data and a small oracle run made first; the figure
is the median wall and CPU time of ``--repeats`` runs (CPU seconds are steadier on a busy
machine), and the last column says whether litellm was imported (it never should be: its
import alone takes seconds).

    .venv/bin/python benchmarks/startup_bench.py            # goal: each ≤ 1 s on an idle machine
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
DEVTOOLS = REPO / "datasets" / "devtools"
PROBE = (
    "import sys\nfrom skillbench.cli._main import main\n"
    "try:\n    code = main(sys.argv[1:])\nexcept SystemExit as exc:\n    code = exc.code\n"
    "print('litellm imported' if 'litellm' in sys.modules else 'litellm not imported',"
    " file=sys.stderr)\nsys.exit(code)\n"
)
"""Runs one command like ``python -m skillbench`` and reports, last on stderr, whether
litellm got imported."""

CONFIG = """\
name: {name}
catalogs:
  devtools:
    - {{path: {d}/skills/bundled, source: bundled}}
    - {{path: {d}/skills/user, source: user}}
    - {{path: {d}/skills/project, source: project}}
    - {{path: {d}/skills/plugin, source: plugin}}
cwd: {d}/workspace
requests: {d}/requests.jsonl
budgets: [4000]
limit: 40
selectors:
{selectors}"""
ORACLE = "  - {type: oracle}\n  - {type: never}\n"
MODEL = "  - {type: litellm, model: openai/gpt-4o-mini, api_key_env: SKILLBENCH_UNSET_KEY}\n"
"""A model selector whose key variable is empty: ``doctor`` must say so without litellm."""


def inputs(folder: Path) -> dict[str, str]:
    """The configs and run directory the commands need, written under ``folder``."""
    fields = {"d": DEVTOOLS}
    oracle, model = folder / "oracle.yaml", folder / "model.yaml"
    oracle.write_text(CONFIG.format(name="startup", selectors=ORACLE, **fields), encoding="utf-8")
    model.write_text(CONFIG.format(name="model", selectors=MODEL, **fields), encoding="utf-8")
    return {
        "oracle": str(oracle),
        "model": str(model),
        "run": str(folder / "run"),
        "skills": f"project={DEVTOOLS / 'skills' / 'project'}",
        "out": str(folder),
    }


def commands(paths: dict[str, str]) -> dict[str, list[str]]:
    """Every model-free command, by a short name; ``run`` comes first (the others read it)."""
    run, skills, out = paths["run"], paths["skills"], paths["out"]
    return {
        "run (oracle)": ["run", paths["oracle"], "-o", run, "--quiet", "--overwrite"],
        "--help": ["--help"],
        "schema": ["schema", "config"],
        "catalog": ["catalog", skills],
        "render": ["render", skills],
        "render --format json": ["render", skills, "--format", "json"],
        "lint": ["lint", skills.split("=", 1)[1]],
        "cost": ["cost", skills],
        "doctor (key unset)": ["doctor", paths["model"]],
        "run --dry-run": ["run", paths["oracle"], "--dry-run"],
        "report": ["report", run, "-o", f"{out}/report", "--format", "md", "-q"],
        "view": ["view", run, "-o", f"{out}/view.html", "-q"],
        "compare": ["compare", run, run, "-o", f"{out}/compare.md"],
        "bless": ["bless", run, f"{out}/baseline.json"],
        "check": ["check", run, "--baseline", f"{out}/baseline.json"],
        "cache list": ["cache", "list", "--cache-dir", f"{out}/cache"],
    }


class Launch(NamedTuple):
    """One fresh process: wall and CPU seconds, exit code, whether litellm was imported."""

    wall: float
    cpu: float
    code: int
    litellm: bool


def launch(argv: list[str]) -> Launch:
    """Run one command in a fresh process, as a user would."""
    env = {**os.environ, "SKILLBENCH_UNSET_KEY": ""}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, env=env, cwd=REPO
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    imported = "litellm imported" in done.stderr.splitlines()[-1:]
    return Launch(wall, cpu, done.returncode, imported)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per command (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'command':<22}{'wall s':>8}{'CPU s':>8}{'exit':>6}  litellm")
        for name, argv in commands(inputs(Path(tmp))).items():
            runs = [launch(argv) for _ in range(args.repeats)]
            wall = statistics.median(r.wall for r in runs)
            cpu = statistics.median(r.cpu for r in runs)
            exits = "/".join(str(c) for c in sorted({r.code for r in runs}))
            said = "imported" if any(r.litellm for r in runs) else "-"
            print(f"{name:<22}{wall:>8.2f}{cpu:>8.2f}{exits:>6}  {said}")


if __name__ == "__main__":
    main()
