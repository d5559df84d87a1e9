"""Retrieval in front of the embedding selector on the MetaTool dev split (199 tools).

Replays one grid: the embedding selector on the full listing (codebot's default budget,
which hides most tools, and a budget that shows them all) against the same selector behind
a retrieve stage (embedding top 5 and 10, BM25 top 10). Prints accuracy, coverage and the
retrieval metrics of every cell, and the time the retrieve stages took to rank the whole
catalog for every request.

Run: ``.venv/bin/python benchmarks/retrieval_bench.py [--limit N] [--data DIR] [-o DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "metatool-dev"

CONFIG = """\
name: retrieval-metatool
catalogs:
  metatool: [{{path: {data}/tools.jsonl}}]
requests: {data}/requests.jsonl
profiles: [codebot]
budgets: [null, 40000]
orderings: [usage]
usage: {{record: label}}
selectors:
  - {{type: embedding, name: full}}
  - {{type: embedding, name: embedding-k5, retrieve: {{method: embedding, k: 5}}}}
  - {{type: embedding, name: embedding-k10, retrieve: {{method: embedding, k: 10}}}}
  - {{type: embedding, name: bm25-k10, retrieve: {{method: bm25, k: 10}}}}
"""
COLUMNS = ("accuracy", "coverage", "hit_at_k", "mrr", "ndcg_at_k", "tokens_saved")


def ranking_seconds(data: Path, limit: int | None) -> dict[str, float]:
    """Wall time of ranking all 199 tools for every request, per method (vectors cached)."""
    from skillbench.catalog import SourceSpec, load_catalog
    from skillbench.dataset import load_requests
    from skillbench.selectors import RETRIEVERS, SelectorEnv, skill_text, top_k

    env = SelectorEnv(cache_dir=Path(os.environ["SKILLBENCH_CACHE_DIR"]))
    texts = [r.text for r in load_requests(data / "requests.jsonl")][:limit]
    skills = load_catalog([SourceSpec(str(data / "tools.jsonl"), "project")]).skills
    documents = [skill_text(s) for s in skills]
    out = {}
    for method in ("embedding", "bm25"):
        retriever = RETRIEVERS.get(method)({}, env)
        start = time.perf_counter()
        top_k(retriever, texts, documents, 10)
        out[method] = time.perf_counter() - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N requests only")
    parser.add_argument("--data", type=Path, default=DATA, help="the metatool-dev folder")
    parser.add_argument("-o", "--output", type=Path, default=None, help="run directory")
    args = parser.parse_args()

    from skillbench.replay import load_config, run_experiment

    work = Path(tempfile.mkdtemp(prefix="retrieval-bench-"))
    os.environ.setdefault("SKILLBENCH_CACHE_DIR", str(work / "cache"))
    config_path = work / "retrieval-metatool.yaml"
    config_path.write_text(CONFIG.format(data=args.data.resolve()), encoding="utf-8")
    start = time.perf_counter()
    result = run_experiment(
        load_config(config_path), output=args.output or work / "run", limit=args.limit
    )
    wall = time.perf_counter() - start
    print(f"{result.decisions:,} decisions in {wall:.1f} s → {result.run_dir}")
    header = ["budget", "selector", *COLUMNS, "listing tokens"]
    print(" | ".join(header))
    summary = json.loads((result.run_dir / "summary.json").read_text(encoding="utf-8"))
    for cell in summary["cells"]:
        values = [
            "–" if cell.get(c) is None else f"{cell[c]:.3f}" for c in COLUMNS
        ]  # retrieval metrics exist only on cells with a stage
        full = cell.get("mean_full_listing_tokens")
        tokens = f"{cell['mean_listing_tokens']:,.0f}"
        if full is not None:
            tokens = f"{full:,.0f} → {tokens}"
        print(" | ".join([str(cell["budget"]), cell["selector"], *values, tokens]))
    for method, seconds in ranking_seconds(args.data, args.limit).items():
        print(f"ranking every request against 199 tools, {method}: {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
