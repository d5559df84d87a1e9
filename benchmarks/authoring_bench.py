"""Scale of the authoring commands: ``lint`` and ``overlap --top 5`` on large tool lists, and
``paths`` activation (``catalog``/``lint --cwd``) with unmatched globs over a large tree.

Catalogs are JSONL tool lists of real descriptions (the real catalogs and MetaTool tools plus
scoped variants, ``scale_data.catalog_entries``): one file holding every skill, the shape
whose per-skill line lookups made lint quadratic. The paths case is 100 skills, each with a
``paths`` glob no file matches, over 30,000 files in 600 folders.

Each measurement runs in a fresh process, which reports its wall and CPU seconds and its
peak resident memory (``ru_maxrss``, the whole process: interpreter and imports included).

Run: ``python benchmarks/authoring_bench.py [--lint 2000 8000 20000] [--overlap 2000 20000]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

GLOB_SKILLS = 100
TREE = (30, 20, 50)
"""Top folders × subfolders × files: 30,000 files."""


def write_tools(path: Path, n: int) -> None:
    from scale_data import base_skills, catalog_entries

    entries = catalog_entries(base_skills(), n)
    lines = (json.dumps({"name": e.name, "description": e.description}) for e in entries)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_globs(root: Path) -> tuple[Path, Path]:
    """``root/skills`` (100 skills with unmatched ``paths``) and ``root/work`` (30,000 files)."""
    skills, work = root / "skills", root / "work"
    tops, subs, files = TREE
    for a in range(tops):
        for b in range(subs):
            folder = work / f"pkg{a:02d}" / "src" / f"mod{b:02d}"
            folder.mkdir(parents=True, exist_ok=True)
            for c in range(files):
                (folder / f"file{c:02d}.py").write_text("")
    for i in range(GLOB_SKILLS):
        folder = skills / f"infra-{i:03d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: infra-{i:03d}\ndescription: Plan infrastructure change {i}.\n"
            f'paths: ["**/*.tf{i}", "deploy/{i}/**"]\n---\nBody.\n',
            encoding="utf-8",
        )
    return skills, work


def measure(kind: str, *args: str) -> dict[str, float]:
    """Wall, CPU and peak memory of one measurement in a fresh process."""
    out = subprocess.run(
        [sys.executable, __file__, "--one", kind, *args],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def one(kind: str, args: list[str]) -> None:
    """Run in the child: one measurement, printed as JSON."""
    from skillbench.authoring import lint_sources, load_overlap
    from skillbench.catalog import load_catalog

    wall, cpu = time.perf_counter(), time.process_time()
    if kind == "lint":
        found = len(lint_sources([args[0]]).findings)
    elif kind == "overlap":
        found = len(load_overlap([args[0]], embeddings=args[1] == "embeddings", top=5))
    elif kind == "lint-cwd":
        found = len(lint_sources([args[0]], cwd=args[1]).findings)
    else:
        found = len(load_catalog([args[0]], cwd=args[1]).inactive)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "wall_s": round(time.perf_counter() - wall, 2),
                "cpu_s": round(time.process_time() - cpu, 2),
                "peak_mb": round(peak_mb),
                "found": found,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lint", type=int, nargs="*", default=[2000, 8000, 20000])
    parser.add_argument("--overlap", type=int, nargs="*", default=[2000, 20000])
    parser.add_argument("--overlap-embeddings", action="store_true", help="cosine too (MiniLM)")
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one[0], args.one[1:])
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for n in sorted({*args.lint, *args.overlap}):
            write_tools(root / f"tools-{n}.jsonl", n)
        for n in args.lint:
            r = measure("lint", str(root / f"tools-{n}.jsonl"))
            print(f"lint {n:>6} skills: {r['wall_s']} s wall, {r['cpu_s']} s CPU, "
                  f"{r['peak_mb']} MB peak, {r['found']} findings", flush=True)  # fmt: skip
        mode = "embeddings" if args.overlap_embeddings else "bm25"
        for n in args.overlap:
            r = measure("overlap", str(root / f"tools-{n}.jsonl"), mode)
            print(f"overlap --top 5 ({mode}) {n:>6} skills: {r['peak_mb']} MB peak, "
                  f"{r['wall_s']} s wall, {r['cpu_s']} s CPU", flush=True)  # fmt: skip
        skills, work = write_globs(root / "globs")
        for kind in ("catalog-cwd", "lint-cwd"):
            r = measure(kind, str(skills), str(work))
            print(f"{kind} ({GLOB_SKILLS} unmatched paths skills, 30,000 files): "
                  f"{r['cpu_s']} s CPU, {r['wall_s']} s wall", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
