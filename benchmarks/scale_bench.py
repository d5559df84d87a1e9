"""Big catalogs and request sets: time and peak memory of each stage of a 20k × 20k run.

Builds (seeded, see ``scale_data.py``) a catalog of ``--skills`` SKILL.md skills from the real
catalogs and MetaTool tools plus scoped variants, and ``--requests`` labelled requests, then
times each stage in this process:

  catalog load     load_catalog on the generated folder
  listing render   every (budget, ordering) plan rendered at every request, usage recorded
                   from the labels as the run does; collects the distinct shown entry texts
  embedding encode load MiniLM and encode every distinct text once (requests + shown
                   entries): the floor every embedding run pays
  replay setup     run_experiment up to the first decision (requests, catalogs, plans,
                   selectors; embeddings already in the process-wide memory cache)
  replay decisions the grid (embedding and lexical × budgets × orderings), rows streamed
  summary          results rewritten in canonical order, summary.json, manifest
  report           write_report (report.md/html, CSV, plots)

Peak memory per stage is the highest resident set size (RSS, /proc/self/statm) sampled every
10 ms during the stage; "process peak" is getrusage's ru_maxrss at the end. CPU seconds
(time.process_time, all threads) are printed beside wall time: on a shared machine they
show the work a stage does whatever else is running.

``--quickstart`` instead times ``skillbench run configs/quickstart.yaml`` in a fresh process
with an empty cache (SKILLBENCH_CACHE_DIR) against its floor, measured in another fresh
process: import and load the model, encode every distinct text of the run once.

Run: ``python benchmarks/scale_bench.py [--skills 20000] [--requests 20000] [-o DIR]``
     ``python benchmarks/scale_bench.py --quickstart``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parent))
REPO = Path(__file__).resolve().parents[1]

CONFIG = """\
name: scale
catalogs:
  scale: {skills}
requests: {requests}
profiles: [codebot]
budgets: {budgets}
orderings: [usage, alpha]
half_lives: [7d]
usage: {{record: label}}
selectors:
  - {{type: embedding, threshold: 0.35}}
  - {{type: lexical, threshold: 1.0}}
seed: 0
"""

_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss() -> int:
    """Resident set size now, in bytes."""
    with open("/proc/self/statm", encoding="ascii") as fh:
        return int(fh.read().split()[1]) * _PAGE


class Stages:
    """Wall time and sampled peak RSS of named stages, in the order they ran."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, float, int, str]] = []
        self._cpu = 0.0
        self._peak = 0
        self._stop = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        while not self._stop.wait(0.01):
            self._peak = max(self._peak, rss())

    @contextmanager
    def stage(self, name: str, note: str = "") -> Iterator[dict[str, str]]:
        self._peak = rss()
        start, cpu = time.perf_counter(), time.process_time()
        extra = {"note": note}
        yield extra
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        self.rows.append((name, wall, cpu, max(self._peak, rss()), extra["note"]))

    def mark(self, name: str, start: float, cpu: float, peak: int) -> None:
        wall = time.perf_counter() - start
        self.rows.append((name, wall, time.process_time() - cpu, peak, ""))

    def table(self) -> str:
        lines = [f"{'stage':<18} {'wall s':>8} {'CPU s':>8} {'peak RSS MB':>12}  note"]
        for name, wall, cpu, peak, note in self.rows:
            lines.append(f"{name:<18} {wall:8.1f} {cpu:8.1f} {peak / 2**20:12.0f}  {note}")
        maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        lines.append(f"process peak (ru_maxrss) {maxrss:,.0f} MB")
        return "\n".join(lines)


class PhaseClock:
    """A RunObserver that turns the engine's phases into stages."""

    def __init__(self, stages: Stages) -> None:
        self.stages = stages
        self.current: tuple[str, float, float] | None = None

    def phase(self, name: str, total: int | None = None) -> None:
        label = (
            "replay decisions"
            if name.startswith("replaying")
            else "summary"
            if name.startswith("writing")
            else "replay setup"
        )
        self.switch(label)

    def switch(self, label: str | None) -> None:
        if self.current is not None and self.current[0] != label:
            self.stages.mark(*self.current, self.stages._peak)
        if label is not None and (self.current is None or self.current[0] != label):
            self.stages._peak = rss()
            self.current = (label, time.perf_counter(), time.process_time())
        elif label is None:
            self.current = None

    def decision(self, row: Any) -> None:
        pass


def distinct_texts(config: Any) -> tuple[list[str], int]:
    """Request texts and every shown entry text of the run's listings, once each, and the
    number of distinct listings: what an embedding run must encode."""
    from skillbench.replay import build_grid, resolve_experiment
    from skillbench.selectors._text import entry_text

    experiment = resolve_experiment(config)
    grid = build_grid(experiment.grid)
    texts = dict.fromkeys(r.text for r in grid.requests)
    tracker = experiment.usage.trackers()
    listings: set[str] = set()
    for plan in {id(p): p for p in grid.plans.values()}.values():
        for half_life in experiment.grid.half_lives:
            usage = tracker(half_life)
            for r in grid.requests:
                assert r.at is not None
                listing = plan.render(usage.ranked(r.at) if plan.uses_scores else {})
                if listing.text not in listings:
                    listings.add(listing.text)
                    texts.update(dict.fromkeys(entry_text(e) for e in listing.shown))
                if r.expected:
                    usage.record(r.expected[0], r.at)
    return list(texts), len(listings)


def scale(args: argparse.Namespace, out: Path) -> None:
    from scale_data import write_scale_data

    from skillbench.catalog import load_catalog
    from skillbench.replay import load_config, run_experiment
    from skillbench.report import write_report
    from skillbench.selectors._embedder import DEFAULT_MODEL, Embedder

    stages = Stages()
    with stages.stage("generate data") as extra:
        data = write_scale_data(out / "data", skills=args.skills, n_requests=args.requests)
        extra["note"] = f"{data.skills:,} skills, {data.positives:,} + {data.negatives:,} requests"
    config_path = out / "scale.yaml"
    config_path.write_text(
        CONFIG.format(
            skills=json.dumps([{"path": str(d)} for d in data.skill_dirs]),
            requests=data.requests,
            budgets=args.budgets,
        )
    )
    config = load_config(config_path)
    with stages.stage("catalog load") as extra:
        catalog = load_catalog([str(d) for d in data.skill_dirs], profile="codebot")
        extra["note"] = f"{len(catalog.skills):,} skills"
    with stages.stage("listing render") as extra:
        texts, listings = distinct_texts(config)
        plans = len(json.loads(args.budgets)) * 2
        extra["note"] = f"{plans} plans × {args.requests:,} requests, {listings:,} distinct"
    with stages.stage("embedding encode") as extra:
        embedder = Embedder.shared(DEFAULT_MODEL, Path(os.environ["SKILLBENCH_CACHE_DIR"]))
        embedder.embed(texts)
        extra["note"] = f"model load + {len(texts):,} distinct texts (the floor)"
    clock = PhaseClock(stages)
    result = run_experiment(config, output=out / "run", observer=clock)
    clock.switch(None)
    with stages.stage("report") as extra:
        write_report(result.run_dir)
        extra["note"] = f"{result.decisions:,} decisions, {len(result.cells)} cells"
    print(stages.table())
    floor = next(r for r in stages.rows if r[0] == "embedding encode")
    after = [r for r in stages.rows if r[0] in ("replay decisions", "summary", "report")]
    wall, cpu = sum(r[1] for r in after), sum(r[2] for r in after)
    print(
        f"replay + summary + report {wall:.1f} s wall, {cpu:.1f} s CPU; "
        f"embeddings {floor[1]:.1f} s wall, {floor[2]:.1f} s CPU"
    )


FLOOR = """\
import json, sys, time
start = time.perf_counter()
from skillbench.selectors._embedder import DEFAULT_MODEL, Embedder
Embedder(DEFAULT_MODEL, None).embed(json.load(open(sys.argv[1])))
print(time.perf_counter() - start)
"""


def quickstart(out: Path) -> None:
    """Quickstart cold (CLI, fresh cache) against load + encode of its distinct texts."""
    from skillbench.replay import load_config

    texts, _ = distinct_texts(load_config(REPO / "configs" / "quickstart.yaml"))
    for stale in ("cache", "run"):
        shutil.rmtree(out / stale, ignore_errors=True)
    texts_file = out / "texts.json"
    texts_file.write_text(json.dumps(texts))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    floor = _timed([sys.executable, "-c", FLOOR, str(texts_file)], env)
    env["SKILLBENCH_CACHE_DIR"] = str(out / "cache")
    command = [sys.executable, "-m", "skillbench", "run", "configs/quickstart.yaml"]
    run = _timed([*command, "-o", str(out / "run"), "--quiet"], env)
    what = f"import, load model, encode {len(texts):,} texts"
    print(f"floor (fresh process: {what}) {floor.wall:.1f} s wall, {floor.cpu:.1f} s CPU")
    print(
        f"quickstart cold (skillbench run, empty cache) {run.wall:.1f} s wall, {run.cpu:.1f} s CPU"
    )
    print(f"ratio {run.wall / floor.wall:.2f}× wall, {run.cpu / floor.cpu:.2f}× CPU (goal ≤ 2×)")


class Timed(NamedTuple):
    wall: float
    cpu: float


def _timed(command: list[str], env: dict[str, str]) -> Timed:
    """Wall time and CPU time (user + system) of a child process run to completion."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=REPO, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Timed(wall, cpu)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--skills", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--budgets", default="[4000, 16000]", help="codebot budgets, YAML list")
    parser.add_argument("--quickstart", action="store_true", help="quickstart vs its floor")
    parser.add_argument("-o", "--output", type=Path, help="keep the data and run here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sb-scale-") as tmp:
        out = args.output or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        os.environ["SKILLBENCH_CACHE_DIR"] = str(out / "cache")
        if args.quickstart:
            quickstart(out)
        else:
            scale(args, out)


if __name__ == "__main__":
    main()
