"""Peak memory and time of the catalog commands on skills with huge bodies.

Builds a catalog of ``--skills`` SKILL.md files (default 40) whose bodies are ``--mb`` MB of
Markdown each (default 7.5: prose lines, code blocks, ``$ARGUMENTS`` and ``{{…}}``
placeholders for the lint rules to find), plus one file just over the loader's 8 MiB cap,
then runs each command through the real CLI in a fresh process and prints its wall time, CPU
time and peak resident memory (``ru_maxrss`` of the child: interpreter and imports included)
beside the catalog's size on disk.

    .venv/bin/python benchmarks/big_bodies_bench.py [--skills 40] [--mb 7.5] [--only lint]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS: dict[str, list[str]] = {
    "lint": ["lint", "{root}", "--format", "json"],
    "catalog": ["catalog", "{root}", "--format", "json"],
    "render": ["render", "{root}", "--profile", "all"],
    "plan": ["plan", "{root}"],
}

_PARAGRAPH = (
    "Read the diff first, then the tests that cover it; note every behaviour change.\n"
    "When a hunk touches error handling, check the caller's recovery path as well.\n"
    "Use $ARGUMENTS as the scope; with none, review the whole working tree.\n"
    "\n"
    "```bash\n"
    "git diff --stat {{base}}..HEAD\n"
    "```\n"
    "\n"
)


def _body(size: int) -> str:
    reps = size // len(_PARAGRAPH) + 1
    return (_PARAGRAPH * reps)[:size]


def build(root: Path, skills: int, mb: float) -> int:
    """Write the catalog under ``root``; its size on disk in bytes."""
    body = _body(int(mb * 1_000_000))
    total = 0
    for i in range(skills + 1):
        name = f"huge-{i:03d}" if i < skills else "over-the-cap"
        text = body if i < skills else _body(9 * 1024 * 1024)
        folder = root / name
        folder.mkdir(parents=True)
        page = (
            f"---\nname: {name}\ndescription: Review a change set, part {i}.\n"
            f"when_to_use: Use when asked to review patch {i}.\n---\n\n# {name}\n\n{text}"
        )
        (folder / "SKILL.md").write_text(page, encoding="utf-8")
        total += len(page)
    return total


def measure(argv: list[str]) -> tuple[int, float, float, float]:
    """Exit code, wall seconds, CPU seconds and peak RSS (MB) of one CLI call."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "skillbench", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        print(done.stderr[-2000:], file=sys.stderr)
    return done.returncode, wall, cpu, after.ru_maxrss / 1024


def _one(argv: list[str]) -> None:
    """In a child: measure ``argv`` alone and print the figures (``ru_maxrss`` of
    ``RUSAGE_CHILDREN`` is the largest child so far, so each command gets its own parent)."""
    code, wall, cpu, peak = measure(argv)
    print(f"{code} {wall:.2f} {cpu:.2f} {peak:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=40)
    parser.add_argument("--mb", type=float, default=7.5)
    parser.add_argument("--only", action="append", choices=sorted(COMMANDS))
    parser.add_argument("--one", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        _one(args.one)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "skills"
        size = build(root, args.skills, args.mb)
        print(
            f"{args.skills} skills of {args.mb} MB bodies + 1 over the 8 MiB cap: "
            f"{size / 1e6:,.0f} MB on disk"
        )
        for name in args.only or COMMANDS:
            argv = [a.format(root=root) for a in COMMANDS[name]]
            out = subprocess.run(
                [sys.executable, __file__, "--one", *argv],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            code, wall, cpu, peak = out[-4:]
            print(
                f"{name:<8} exit {code}  {float(wall):6.1f} s wall  {float(cpu):6.1f} s CPU  "
                f"peak {float(peak):7,.0f} MB"
            )


if __name__ == "__main__":
    main()
