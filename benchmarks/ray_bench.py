"""A config run by the local and the ray executor: wall times, and whether the runs agree.

Each run is the real CLI in a subprocess (imports, Ray start-up and the report included),
local first on a fresh embedding cache, then ray reading the same cache. It prints both
times and whether results.jsonl, summary.json, manifest.json and config.yaml agree with the
timing fields dropped. Needs ``pip install 'skillbench[ray]'``.

    .venv/bin/python benchmarks/ray_bench.py [CONFIG] [--limit N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from support.runs import run_files  # noqa: E402


def run(config: str, out: Path, env: dict[str, str], extra: list[str]) -> float:
    """Wall seconds of one ``skillbench run``."""
    cmd = [sys.executable, "-m", "skillbench", "run", config, "-o", str(out), "-q", *extra]
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", nargs="?", default=str(REPO / "configs" / "quickstart.yaml"))
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    limit = [] if args.limit is None else ["--limit", str(args.limit)]
    with tempfile.TemporaryDirectory(prefix="ray-bench-") as tmp:
        root = Path(tmp)
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "SKILLBENCH_CACHE_DIR": str(root / "cache"),
            "HF_HUB_OFFLINE": "1",
        }
        local = run(args.config, root / "local", env, limit)
        on_ray = run(args.config, root / "ray", env, [*limit, "--executor", "ray"])
        a, b = run_files(root / "local"), run_files(root / "ray")
        print(f"config {args.config}: {len(a['results.jsonl']):,} decisions")
        print(f"  local (fresh embedding cache)  {local:6.1f} s")
        print(f"  ray   (same cache)             {on_ray:6.1f} s")
        for name in a:
            print(f"  {name:<14} {'equal' if a[name] == b[name] else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
