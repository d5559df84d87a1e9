"""Wall time of the litellm selector against the fake server (fixed latency) vs the ideal.

Ideal = calls × latency / concurrency: what perfect overlap of waiting would give. The goal
(issue 4) is within 1.3× of ideal at concurrency 8 and 32. Every run uses a fresh cache, so
all 400 decisions are real HTTP calls.

    .venv/bin/python benchmarks/litellm_bench.py [--decisions 400] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.fake_openai import FakeOpenAI  # noqa: E402

from skillbench.catalog import Skill  # noqa: E402
from skillbench.dataset import LabelledRequest  # noqa: E402
from skillbench.listing import render_listing  # noqa: E402
from skillbench.selectors import SELECTORS, Query, SelectorEnv  # noqa: E402

SKILLS = [
    Skill(f"skill-{i:02d}", f"Handle task family {i}: build, test and review step {i}.")
    for i in range(30)
]


def measure(server: FakeOpenAI, decisions: int, concurrency: int) -> float:
    listing = render_listing(SKILLS, profile="codebot", ordering="alpha")
    queries = [
        Query(LabelledRequest(f"r{i}", f"please run skill-{i % 30:02d} on item {i}"), listing)
        for i in range(decisions)
    ]
    with tempfile.TemporaryDirectory() as cache:
        env = SelectorEnv(Path(cache), max_concurrency=concurrency, quiet=True)
        selector = SELECTORS.get("litellm")(
            {"model": "openai/bench", "api_base": server.base_url, "api_key_env": "BENCH_KEY"},
            env,
        )
        start = time.perf_counter()
        made = selector.select(queries)
        wall = time.perf_counter() - start
    assert all(d.kind == "invoke" for d in made), {d.kind for d in made}
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=400)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    args = parser.parse_args()
    os.environ.setdefault("BENCH_KEY", "bench-key")
    with FakeOpenAI(latency_s=args.latency) as server:
        measure(server, 16, 8)  # warm-up: import litellm, open connections
        print(f"{args.decisions} decisions, {args.latency * 1000:.0f} ms latency")
        print(f"{'concurrency':>11}  {'wall s':>7}  {'ideal s':>7}  {'ratio':>5}")
        for c in args.concurrency:
            server.reset()
            wall = measure(server, args.decisions, c)
            assert server.requests == args.decisions, server.requests
            ideal = args.decisions * args.latency / c
            print(f"{c:>11}  {wall:>7.2f}  {ideal:>7.2f}  {wall / ideal:>5.2f}")


if __name__ == "__main__":
    main()
