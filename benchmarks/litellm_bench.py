"""Wall time of the litellm selector against the fake server (fixed latency) vs the ideal.

Ideal = calls × latency / concurrency: perfect overlap of the waiting. Goal: within
1.3× of ideal at concurrency 8 and 32. The server runs in its own process (it must not compete
with the client for the GIL) and every run uses a fresh cache, so all decisions are real HTTP
calls through litellm.

    .venv/bin/python benchmarks/litellm_bench.py [--decisions 400] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
REPO = Path(__file__).resolve().parents[1]

from skillbench.catalog import Skill  # noqa: E402
from skillbench.dataset import LabelledRequest  # noqa: E402
from skillbench.listing import render_listing  # noqa: E402
from skillbench.selectors import SELECTORS, Query, SelectorEnv  # noqa: E402

SKILLS = [
    Skill(f"skill-{i:02d}", f"Handle task family {i}: build, test and review step {i}.")
    for i in range(30)
]


def served(base_url: str) -> int:
    with urllib.request.urlopen(f"{base_url}/stats") as response:
        return int(json.load(response)["requests"])


def measure(
    base_url: str, decisions: int, concurrency: int, tag: str, processes: int = 1
) -> tuple[float, float]:
    """Wall and client CPU seconds (this process only) for ``decisions`` distinct prompts at
    ``concurrency``, the calls made by ``processes`` processes."""
    listing = render_listing(SKILLS, profile="codebot", ordering="alpha")
    queries = [
        Query(LabelledRequest(f"r{i}", f"please run skill-{i % 30:02d} on {tag} item {i}"), listing)
        for i in range(decisions)
    ]
    with tempfile.TemporaryDirectory() as cache:
        env = SelectorEnv(Path(cache), max_concurrency=concurrency, quiet=True)
        params = {
            "model": "openai/bench",
            "api_base": base_url,
            "api_key_env": "BENCH_KEY",
            "processes": processes,
        }
        selector = SELECTORS.get("litellm")(params, env)
        before = served(base_url)
        start, cpu = time.perf_counter(), time.process_time()
        made = selector.select(queries)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        assert served(base_url) - before == decisions + 1  # and the pre-flight
    assert all(d.kind == "invoke" for d in made), {d.kind for d in made}
    return wall, cpu


def serve(latency: float) -> tuple[subprocess.Popen[str], str]:
    """The fake server in its own process, and its base URL."""
    os.environ.setdefault("BENCH_KEY", "bench-key")
    server = subprocess.Popen(
        [sys.executable, str(REPO / "tests/support/fake_openai.py"), "--latency", str(latency)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    return server, server.stdout.readline().strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=400)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    args = parser.parse_args()
    server, base_url = serve(args.latency)
    try:
        measure(base_url, 16, 8, "warm-up")  # import litellm, open connections
        print(f"{args.decisions} decisions, {args.latency * 1000:.0f} ms latency")
        print(
            f"{'concurrency':>11}  {'wall s':>7}  {'ideal s':>7}  {'ratio':>5}  {'cpu ms/call':>11}"
        )
        for c in args.concurrency:
            wall, cpu = measure(base_url, args.decisions, c, f"c{c}")
            ideal = args.decisions * args.latency / c
            per_call = cpu * 1000 / args.decisions
            print(f"{c:>11}  {wall:>7.2f}  {ideal:>7.2f}  {wall / ideal:>5.2f}  {per_call:>11.1f}")
        print(
            "cpu ms/call is the client's own CPU per decision (litellm + skillbench); the event "
            "loop holds the GIL, so wall time cannot drop below calls × cpu ms/call (in one "
            "process: benchmarks/processes_bench.py spreads the calls over worker processes)"
        )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
