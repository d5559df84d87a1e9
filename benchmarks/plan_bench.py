"""Scale of ``plan``: a 20,000-skill catalog over 12 weekly steps of usage decay.

The catalog is a folder of ``SKILL.md`` skills with real descriptions (the real catalogs and
MetaTool tools plus scoped variants, ``scale_data.catalog_entries``), as both agents load
them; the usage history gives every tenth
skill a use count and a last use spread over the 90 days before day 0, so Claude Code's
usage ranking changes week by week as the 0.1 floor catches older uses. Each profile is
planned in a fresh process (today, the 12 steps, what fits and the coverage curve; no trim),
which reports its wall and CPU seconds and its peak resident memory (``ru_maxrss``, the
whole process: interpreter and imports included). Goal: under 10 s and 1 GB on 2 cores.

``--side-by-side`` times the commands a user runs instead, each a fresh process: ``skillbench
render`` (the listing under the same usage) then ``skillbench plan`` of the same catalog,
and prints their wall and CPU seconds, peak memory and the plan-to-render ratio (goal: at
most 3), the median over ``--runs`` runs.

Run: ``python benchmarks/plan_bench.py [--skills 20000] [--weeks 12] [--side-by-side]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parent))

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def write_inputs(root: Path, n: int) -> tuple[list[Path], Path]:
    """The skills folder (``scale_data.write_scale_data``) and a usage file: every tenth
    skill used, its last use within the 90 days before day 0."""
    from scale_data import base_skills, catalog_entries, write_scale_data

    data = write_scale_data(root, skills=n, n_requests=1)
    rng = random.Random(0)
    usage = {
        e.name: {
            "count": rng.randint(1, 40),
            "last_used": (NOW - timedelta(days=rng.uniform(0, 90))).isoformat(),
        }
        for e in catalog_entries(base_skills(), n)[::10]
    }
    path = root / "usage.json"
    path.write_text(json.dumps(usage), encoding="utf-8")
    return data.skill_dirs, path


def measure(profile: str, shards: list[Path], usage: Path, weeks: int) -> dict[str, float]:
    """Wall, CPU and peak memory of one profile's plan in a fresh process."""
    folders = ",".join(str(s) for s in shards)
    out = subprocess.run(
        [sys.executable, __file__, "--one", profile, folders, str(usage), str(weeks)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def one(profile: str, tools: str, usage: str, weeks: int) -> None:
    """Run in the child: one plan, printed as JSON."""
    from skillbench.catalog import parse_source_arg
    from skillbench.planner import PlanOptions, load_usage, plan_catalog

    wall, cpu = time.perf_counter(), time.process_time()
    options = PlanOptions(
        profiles=(profile,), usage=load_usage(usage), usage_source=usage, now=NOW, weeks=weeks
    )
    sources = [parse_source_arg(f"project={folder}") for folder in tools.split(",")]
    report = plan_catalog(sources, options).report
    plan = report.agents[0]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "wall_s": round(time.perf_counter() - wall, 2),
                "cpu_s": round(time.process_time() - cpu, 2),
                "peak_mb": round(peak_mb),
                "skills": report.skills,
                "fits": plan.fits.budget,
                "fell": sum(len(s.fell) for s in plan.timeline),
            }
        )
    )


def timed(argv: list[str]) -> tuple[float, float, float]:
    """Wall and CPU seconds and peak MB of one command run as a child process."""
    wall = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(argv[:4])} ...")
    cpu = usage.ru_utime + usage.ru_stime
    return time.perf_counter() - wall, cpu, usage.ru_maxrss / 1024


def side_by_side(profile: str, shards: list[Path], usage: Path, weeks: int, runs: int) -> None:
    """``render`` then ``plan`` of the same catalog, medians over ``runs``."""
    cli = [str(Path(sys.executable).with_name("skillbench"))]
    common = [*(f"project={s}" for s in shards), "--profile", profile, "--usage", str(usage)]
    common += ["--now", NOW.isoformat(), "-q"]
    render = [*cli, "render", *common]
    plan = [*cli, "plan", *common, "--weeks", str(weeks), "--format", "json"]
    r = [timed(render) for _ in range(runs)]
    p = [timed(plan) for _ in range(runs)]
    rw, rc, rm = (statistics.median(x[i] for x in r) for i in range(3))
    pw, pc, pm = (statistics.median(x[i] for x in p) for i in range(3))
    print(f"{profile}: render {rw:.1f} s wall, {rc:.1f} s CPU, {rm:.0f} MB; "
          f"plan ({weeks} weekly steps) {pw:.1f} s wall, {pc:.1f} s CPU, {pm:.0f} MB; "
          f"plan/render {pw / rw:.2f}x wall, {pc / rc:.2f}x CPU (median of {runs}); "
          f"load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=20_000)
    parser.add_argument("--weeks", type=int, default=12)
    parser.add_argument("--profiles", nargs="+", default=["claude-code", "codex"])
    parser.add_argument("--side-by-side", action="store_true")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        profile, tools, usage, weeks = args.one
        one(profile, tools, usage, int(weeks))
        return
    with tempfile.TemporaryDirectory() as tmp:
        tools, usage = write_inputs(Path(tmp), args.skills)
        for profile in args.profiles:
            if args.side_by_side:
                side_by_side(profile, tools, usage, args.weeks, args.runs)
                continue
            r = measure(profile, tools, usage, args.weeks)
            print(f"plan {profile} {r['skills']:,} skills, {args.weeks} weekly steps: "
                  f"{r['wall_s']} s wall, {r['cpu_s']} s CPU, {r['peak_mb']} MB peak; "
                  f"fits at {r['fits']:,}, {r['fell']} falls to name only", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
