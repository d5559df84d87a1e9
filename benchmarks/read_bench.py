"""Reading a finished run and reporting on it: the typed records' cost.

Times ``results.read_run`` (every file validated into records) and ``report.write_report``
(markdown and plots) on a run directory, each in this process, best of ``--repeat``; prints the
peak resident memory. Run it on the quickstart's run folder:

    .venv/bin/python -m skillbench run configs/quickstart.yaml -o /tmp/qs
    .venv/bin/python benchmarks/read_bench.py /tmp/qs
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from pathlib import Path

from skillbench.report import write_report
from skillbench.results import read_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    reads, reports = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        run = read_run(args.run_dir)
        reads.append(time.perf_counter() - start)
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            write_report(args.run_dir, formats=("md",), output=out)
            reports.append(time.perf_counter() - start)
            shutil.rmtree(out, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{len(run.rows):,} decisions, {len(run.summary.cells)} cells")
    print(f"read_run: {min(reads):.2f} s; write_report (md, plots): {min(reports):.2f} s")
    print(f"peak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
