"""Replay engine benchmarks.

(a) decisions per second with the ``oracle`` selector on a 199-skill catalog (MetaTool dev
    tools), the engine (one cell, usage ordering, rows written) against a naive loop that
    renders from scratch, selects and classifies request by request. Goal: ≥ 3×.
(b) wall time of a 36-cell embedding grid (3 budgets × 2 orderings × 3 half-lives × 2
    thresholds) against its one-cell corner on the same requests, each in a fresh process
    with an empty embedding cache. Goal: ≤ 2×.

Run: ``.venv/bin/python benchmarks/replay_bench.py [--requests N] [--embedding-requests M]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "metatool-dev"

CONFIG = """\
name: bench
catalogs:
  metatool: [{{path: {data}/tools.jsonl}}]
requests: {data}/requests.jsonl
budgets: {budgets}
orderings: {orderings}
half_lives: {half_lives}
selectors:
{selectors}
"""


def write_config(directory: Path, name: str, **fields: str) -> Path:
    path = directory / f"{name}.yaml"
    path.write_text(CONFIG.format(data=DATA, **fields), encoding="utf-8")
    return path


def oracle_rates(n: int, directory: Path) -> tuple[float, float]:
    """(engine, naive) decisions per second."""
    from skillbench.catalog import load_catalog
    from skillbench.listing import render_listing
    from skillbench.metrics import classify
    from skillbench.replay import load_config, resolve_experiment, run_experiment
    from skillbench.replay._grid import prepare_requests
    from skillbench.selectors import OracleSelector, Query
    from skillbench.tokens import count_tokens
    from skillbench.usage import UsageTracker

    count_tokens("warm up the tokenizer")
    path = write_config(
        directory,
        "oracle",
        budgets="[4000]",
        orderings="[usage]",
        half_lives="[7d]",
        selectors="  - {type: oracle}",
    )
    config = load_config(path)
    start = time.perf_counter()
    run_experiment(config, output=directory / "oracle-run", limit=n)
    engine = n / (time.perf_counter() - start)

    requests = prepare_requests(resolve_experiment(config, limit=n).grid.requests)
    skills = load_catalog([str(DATA / "tools.jsonl")]).skills
    selector, tracker = OracleSelector(), UsageTracker("7d")
    start = time.perf_counter()
    for request in requests:
        assert request.at is not None
        listing = render_listing(
            skills, budget=4000, ordering="usage", scores=tracker.scores(request.at)
        )
        (decision,) = selector.select([Query(request, listing)])
        shown = [e.name for e in listing.shown]
        classify(request.expected, decision, shown)
        count_tokens(listing.text)
        if decision.chosen in shown:
            tracker.record(decision.chosen, request.at)
    naive = n / (time.perf_counter() - start)
    return engine, naive


def timed_run(config: Path, n: int, out: Path) -> float:
    """Wall time of ``skillbench run`` in a fresh process with an empty embedding cache."""
    env = {**os.environ, "SKILLBENCH_CACHE_DIR": tempfile.mkdtemp(prefix="sb-cache-")}
    code = (
        "import time,sys; from skillbench.replay import load_config, run_experiment;"
        "from skillbench.tokens import count_tokens; count_tokens('x');"
        f"c=load_config({str(config)!r}); t=time.perf_counter();"
        f"run_experiment(c, output={str(out)!r}, limit={n});"
        "print(time.perf_counter()-t)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--embedding-requests", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        engine, naive = oracle_rates(args.requests, directory)
        print(
            f"(a) oracle, 199 skills, {args.requests} requests: engine {engine:,.0f} dec/s, "
            f"naive loop {naive:,.0f} dec/s, speed-up {engine / naive:.1f}× (goal ≥ 3×)"
        )
        two = (
            "  - {name: e30, type: embedding, threshold: 0.30}\n"
            "  - {name: e40, type: embedding, threshold: 0.40}"
        )
        grid = write_config(
            directory,
            "grid",
            budgets="[1000, 2000, 4000]",
            orderings="[usage, alpha]",
            half_lives="[1d, 7d, inf]",
            selectors=two,
        )
        one = write_config(
            directory,
            "one",
            budgets="[4000]",
            orderings="[usage]",
            half_lives="[7d]",
            selectors="  - {name: e30, type: embedding, threshold: 0.30}",
        )
        n = args.embedding_requests
        t_one = timed_run(one, n, directory / "one-run")
        t_grid = timed_run(grid, n, directory / "grid-run")
        cells = json.loads((directory / "grid-run" / "manifest.json").read_text())["cells"]
        print(
            f"(b) embedding, {n} requests: 1 cell {t_one:.1f} s, {cells}-cell grid {t_grid:.1f} s, "
            f"ratio {t_grid / t_one:.2f}× (goal ≤ 2×)"
        )


if __name__ == "__main__":
    main()
