"""The toy plugin's project and CLI: four skills, five requests, a config, and the real
``skillbench`` run in a subprocess with the worktree and plugin folders importable.

Skills apple, banana, cherry, date are listed alphabetically; requests q0..q3 expect them
in that order, q4 expects none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
SKILLS = ("apple", "banana", "cherry", "date")
REQUESTS = {"q0": "apple", "q1": "banana", "q2": "cherry", "q3": "date", "q4": None}
BARE = "skillbench_toy.profiles:BARE"
LAST = "skillbench_toy.selectors:LastShown"


class Sites(NamedTuple):
    """Install folders: the working toy plugin, and a plugin that raises on import."""

    toy: Path
    broken: Path


class Done(NamedTuple):
    code: int
    stdout: str
    stderr: str


def cli(args: Sequence[str], cwd: Path, *site: Path) -> Done:
    """``python -m skillbench ARGS`` with the worktree and ``site`` folders importable."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *map(str, site)])}
    done = subprocess.run(
        [sys.executable, "-m", "skillbench", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return Done(done.returncode, done.stdout, done.stderr)


def project(root: Path, profiles: str, selectors: Sequence[str]) -> Path:
    """The four skills, the five requests and a config (one selector per line, from line
    9 on); returns the config path."""
    for name in SKILLS:
        folder = root / "skills" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: the {name} skill\n---\nDo it.\n", encoding="utf-8"
        )
    (root / "requests.jsonl").write_text(
        "".join(
            json.dumps({"id": rid, "text": f"please {rid}", "expected": skill}) + "\n"
            for rid, skill in REQUESTS.items()
        ),
        encoding="utf-8",
    )
    config = root / "config.yaml"
    config.write_text(
        "name: plugins\n"
        "catalogs:\n"
        "  toy: [{path: skills, source: project}]\n"
        "requests: requests.jsonl\n"
        f"profiles: {profiles}\n"
        "budgets: [13, 100]\n"
        "orderings: [alpha]\n"
        "selectors:\n" + "".join(f"  - {s}\n" for s in selectors),
        encoding="utf-8",
    )
    return config
