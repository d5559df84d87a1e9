"""Time to write the viewer page of a run, and what the page holds.

Rebuilding every decision's listing (re-rendering each cell in replay order) is the costly
part; the page stores each distinct listing once, as indices into a table of distinct lines.

    .venv/bin/python benchmarks/view_bench.py reports/quickstart
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from skillbench.view import build_payload, read_run_data, render_page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="run directory")
    args = parser.parse_args()
    start = time.perf_counter()
    data = read_run_data(args.run)
    loaded = time.perf_counter()
    payload = build_payload([data])
    built = time.perf_counter()
    page = render_page(payload, "bench")
    done = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        size = (Path(tmp) / "view.html").write_text(page, encoding="utf-8")
    print(f"decisions          {len(payload['decisions']):,}")
    print(f"distinct listings  {len(payload['listings']):,}")
    print(f"distinct lines     {len(payload['lines']):,}")
    print(f"page characters    {size:,}")
    print(f"read run           {loaded - start:.2f} s")
    print(f"rebuild + payload  {built - loaded:.2f} s")
    print(f"render page        {done - built:.2f} s")


if __name__ == "__main__":
    main()
