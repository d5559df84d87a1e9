"""Wall time of ``skillbench agents check --fuzz N`` for one agent, as a user runs it.

    .venv/bin/python benchmarks/fuzz_bench.py --agent codex        # goal: --fuzz 300 ≤ 5 min
    .venv/bin/python benchmarks/fuzz_bench.py --agent claude-code -j 2 --fuzz 300

Prints the time, the captures and skills compared and the differences found (from the
run's report.json); the agent's CLI must be installed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="codex")
    parser.add_argument("--release", help="only this installed release")
    parser.add_argument("--fuzz", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fuzz-bench-") as out:
        command = [
            sys.executable, "-m", "skillbench", "agents", "check", "--fuzz", str(args.fuzz),
            "--seed", str(args.seed), "--agent", args.agent, "-j", str(args.jobs), "-o", out,
            "--quiet", *(["--release", args.release] if args.release else []),
        ]  # fmt: skip
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode not in (0, 100):
            print(done.stderr or done.stdout, file=sys.stderr)
            return 1
        report = json.loads((Path(out) / "report.json").read_text())
    for release in report["releases"]:
        print(
            f"{release['agent']}@{release['version']}: --fuzz {args.fuzz} -j {args.jobs}: "
            f"{elapsed:.1f} s ({elapsed / 60:.1f} min), {release['catalogs']} captures, "
            f"{release['skills']} skills, {len(release['differences'])} differing "
            f"(shrinking included)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
