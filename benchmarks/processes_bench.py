"""Calls per second of the litellm selector at 1, 2 and 4 processes against the fake server.

litellm spends milliseconds of CPU per call, so one process tops out at a few dozen calls per
second whatever the endpoint's latency; ``processes: N`` moves the calls to N workers. Every
run sends ``--decisions`` distinct prompts (fresh cache) at ``-j`` concurrency to the fake
server (its own process, fixed latency). CPU is read from /proc for the parent, the workers
and the server, so a shared or small machine shows where the time went.

    .venv/bin/python benchmarks/processes_bench.py [--decisions 600] [--latency 0.05] [-j 32]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from litellm_bench import measure, serve

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def children() -> list[int]:
    """Processes this one started (the server and the selector's workers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if parent == os.getpid():
            found.append(int(stat.parent.name))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=600)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("-j", "--concurrency", type=int, default=32)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    server, base_url = serve(args.latency)
    try:
        print(
            f"{args.decisions} decisions, {args.latency * 1000:.0f} ms latency, "
            f"-j {args.concurrency}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
        )
        print(
            f"{'processes':>9}  {'wall s':>6}  {'calls/s':>7}  {'parent ms':>9}  "
            f"{'workers ms':>10}  {'server ms':>9}   (CPU per call)"
        )
        for n in args.processes:
            measure(base_url, 2 * args.concurrency, args.concurrency, f"warm{n}", n)
            pids = [p for p in children() if p != server.pid]
            before = [cpu_s(p) for p in (*pids, server.pid)]
            start = time.perf_counter()
            wall, parent = measure(base_url, args.decisions, args.concurrency, f"p{n}", n)
            elapsed = time.perf_counter() - start
            after = [cpu_s(p) for p in (*pids, server.pid)]
            spent = [a - b for a, b in zip(after, before, strict=True)]
            per = 1000 / args.decisions
            print(
                f"{n:>9}  {wall:>6.2f}  {args.decisions / wall:>7.0f}  {parent * per:>9.1f}  "
                f"{sum(spent[:-1]) * per:>10.1f}  {spent[-1] * per:>9.1f}"
            )
            assert elapsed >= wall
        print(
            "parent: this process (selector, cache, detection; with 1 process also litellm); "
            "workers: litellm in the worker processes; server: the fake endpoint"
        )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
