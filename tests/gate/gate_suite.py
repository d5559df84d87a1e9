"""A tiny real suite for the gate: run directories written by the replay engine itself.

``n`` requests each expect their own skill (``skill-00`` …); ``negatives`` more expect none. A
regression is made the way one happens in a catalog: a skill marked
``disable-model-invocation: true`` drops out of the listing, so the oracle (which invokes an
expected skill whenever the listing shows it) misses that skill's request. Disabling a chosen
set of skills in the baseline and another in the candidate flips exactly the requests we
choose, with every file in the shape the engine writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from skillbench.replay import load_config, run_experiment

N = 30
"""Requests in the suite."""

Replay = Callable[..., Path]
"""``suite(disabled=..., repeats=...)`` → a run directory."""


def write_requests(root: Path, n: int, negatives: int = 0) -> Path:
    path = root / "requests.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(
                json.dumps(
                    {"id": f"q{i:02d}", "text": f"do task {i}", "expected": f"skill-{i:02d}"}
                )
            )
            fh.write("\n")
        for i in range(negatives):
            fh.write(json.dumps({"id": f"neg{i:02d}", "text": f"chat {i}", "expected": None}))
            fh.write("\n")
    return path


def replay(
    root: Path,
    name: str,
    *,
    skills: int,
    disabled: Collection[int] = (),
    selector: Mapping[str, Any] | None = None,
    repeats: int = 1,
    budget: int = 8000,
) -> Path:
    """Write a catalog with ``disabled`` skills hidden and replay ``root/requests.jsonl``."""
    catalog = root / "catalogs" / name
    for i in range(skills):
        folder = catalog / f"skill-{i:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        hidden = "disable-model-invocation: true\n" if i in disabled else ""
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{i:02d}\ndescription: Handle task number {i}.\n{hidden}---\n"
            f"Do task {i}.\n",
            encoding="utf-8",
        )
    config = root / f"{name}.yaml"
    config.write_text(
        f"name: {name}\n"
        f"catalogs:\n  suite:\n    - {{path: {catalog}}}\n"
        f"requests: {root / 'requests.jsonl'}\n"
        f"profiles: [codebot]\nbudgets: [{budget}]\norderings: [alpha]\n"
        f"selectors:\n  - {json.dumps(dict(selector or {'type': 'oracle'}))}\n"
        f"repeats: {repeats}\nseed: 0\n",
        encoding="utf-8",
    )
    return run_experiment(load_config(config), output=root / "runs" / name).run_dir
