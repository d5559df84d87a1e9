"""Wall time of ``skillbench catalog --format json`` on hostile-sized inputs.

Two folders are generated in a temporary directory: one with a 5 MB description beside a
healthy skill, one with 20,000 skill folders. Each is loaded through the real command
(in-process, output captured), the output is parsed as JSON to prove it is valid, and the
time, skill count and diagnostic count are printed. A 20,000-folder root passes Codex's
2,000-directory scan limit, so the named "not scanned" diagnostics are part of the output.

    .venv/bin/python benchmarks/hostile_catalog_bench.py [--skills 20000]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import tempfile
import time
from pathlib import Path

from skillbench.cli._main import main


def _skill(root: Path, name: str, description: str) -> None:
    (root / name).mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {description}\n---\n\nBody.\n"
    (root / name / "SKILL.md").write_text(text)


def _measure(label: str, root: Path) -> None:
    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out):
        code = main(["catalog", str(root), "--format", "json"])
    elapsed = time.perf_counter() - start
    document = json.loads(out.getvalue())
    print(
        f"{label:<28} exit {code}  {elapsed:6.2f} s  {len(out.getvalue()) / 1e6:6.1f} MB JSON  "
        f"{len(document['skills']):>6} skills  {len(document['diagnostics']):>6} diagnostics"
    )


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big-description"
        _skill(big, "healthy", "A healthy skill.")
        _skill(big, "huge", "y" * 5_000_000)
        _measure("5 MB description", big)
        many = Path(tmp) / "many"
        for i in range(args.skills):
            _skill(many, f"skill-{i:05d}", f"Skill number {i}.")
        _measure(f"{args.skills:,} skill folders", many)


if __name__ == "__main__":
    main_bench()
