"""Live decisions: what the agent CLI's start-up costs, and what a warm process would save.

Per installed agent (Claude Code and Codex by default):

- ``version``: a bare ``CLI --version`` (the process and its runtime starting);
- ``bare turn``: one non-interactive turn with no skills against a loopback model that
  answers at once: the CLI's own cost of a turn;
- ``live``: decisions per minute of the ``agent`` selector (a fresh workspace and one CLI
  process per decision, skills installed, the turn forwarded through the bridge to the
  scripted loopback model) at 1, 2 and 4 workers, and skillbench's overhead per decision
  at 1 worker (its time per decision minus the bare turn), as a share of the bare turn;
- ``warm``: decisions per minute of one warm process (``skillbench.agents.warm_agent``),
  each request a fresh conversation, and its gain over the live selector at 1 worker;
- ``live, warm``: the ``agent`` selector with ``warm: auto`` (its queries share one listing,
  so each worker answers its share in one warm process) at 1 and 2 workers; the ``live``
  lines above run it with ``warm: off``.

Figures depend on the machine and its load: they are printed, not recorded anywhere.

    .venv/bin/python benchmarks/live_throughput_bench.py [--decisions 8] [--agents codex]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from skillbench.agents import (  # noqa: E402
    AGENTS,
    Recorder,
    Turn,
    Workspace,
    agent_available,
    find_executable,
    run_turn,
    warm_agent,
)
from skillbench.catalog import SourceSpec, load_catalog  # noqa: E402
from skillbench.dataset import LabelledRequest  # noqa: E402
from skillbench.listing import render_listing  # noqa: E402
from skillbench.selectors import SELECTORS, Query, SelectorEnv  # noqa: E402
from tests.agents.test_live_selector import SKILLS, script  # noqa: E402
from tests.support.fake_openai import FakeOpenAI  # noqa: E402

WORKERS = (1, 2, 4)


def median_time(work: Callable[[], object], runs: int) -> float:
    """Median wall seconds of ``runs`` calls of ``work``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def workspace_in(root: Path) -> Workspace:
    """A fresh HOME and project under ``root``, as the live selector makes per decision."""
    workspace = Workspace(root / "home", root / "project")
    for folder in workspace:
        folder.mkdir()
    return workspace


def bare_turn(agent: str, executable: str) -> None:
    """One turn of the CLI with nothing installed, its model a loopback answering at once."""
    with tempfile.TemporaryDirectory(prefix="skillbench-bare-") as tmp:
        turn = Turn(None, {}, {}, {}, "hello", 120.0, None)
        run_turn(AGENTS.get(agent), executable, [], workspace_in(Path(tmp)), turn)


def skills_folder(root: Path) -> Path:
    for name in SKILLS:
        folder = root / name
        folder.mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: Handles {name} work.\n---\nBody of {name}.\n"
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
    return root


def prompts(n: int, tag: str) -> list[str]:
    """Half the requests name a skill to trigger (the script calls it), half do not."""
    return [
        f"please trigger {SKILLS[i % len(SKILLS)]} now ({tag} {i})"
        if i % 2 == 0
        else f"tell me a joke about {tag} {i}"
        for i in range(n)
    ]


def live_rate(
    agent: str, skills: Path, url: str, n: int, workers: int, cache: Path, warm: str = "off"
) -> tuple[float, float]:
    """Wall seconds of ``n`` live decisions of the agent selector at ``workers``, and the
    mean seconds of their model call (the bridge forwarding it to the loopback model)."""
    sources = [SourceSpec(str(skills / name), "project") for name in SKILLS]
    catalog = load_catalog(sources, profile=agent)
    listing = render_listing(catalog.skills, profile=agent, ordering="alpha")
    texts = prompts(n, f"w{workers}")
    queries = [Query(LabelledRequest(f"r{i}", t), listing) for i, t in enumerate(texts)]
    env = SelectorEnv(cache, max_concurrency=workers, quiet=True)
    params = {"agent": agent, "model": "openai/fake", "api_base": url, "cache": False}
    params["warm"] = warm
    selector = SELECTORS.get("agent")(params, env)
    start = time.perf_counter()
    decisions = selector.select(queries)
    wall = time.perf_counter() - start
    errors = [d.detail.get("error") for d in decisions if d.kind == "error"]
    assert not errors, errors[:2]
    model = statistics.mean(float(d.detail["model_latency_ms"]) / 1000 for d in decisions)
    return wall, model


def warm_rate(agent: str, skills: Path, n: int) -> float:
    """Wall seconds of ``n`` requests through one warm process (its start included)."""
    spec = AGENTS.get(agent)
    with tempfile.TemporaryDirectory(prefix="skillbench-warm-") as tmp:
        workspace = workspace_in(Path(tmp))
        spec.lay_out([SourceSpec(str(skills / name), "project") for name in SKILLS], workspace)
        spec.configure(workspace, {}, {})
        start = time.perf_counter()
        with (
            Recorder() as recorder,
            warm_agent(agent, find_executable(spec), workspace, recorder) as warm,
        ):
            for text in prompts(n, "warm"):
                warm.ask(text)
        return time.perf_counter() - start


def bench(agent: str, n: int, runs: int) -> None:
    executable = find_executable(AGENTS.get(agent))
    version = median_time(
        lambda: subprocess.run([executable, "--version"], capture_output=True, check=True), runs
    )
    bare = median_time(lambda: bare_turn(agent, executable), runs)
    print(f"{agent}: --version {version:.2f} s, bare turn {bare:.2f} s (median of {runs})")
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI(policy=script) as fake:
        skills = skills_folder(Path(tmp) / "skills")
        per_decision, model = {}, {}
        for workers in WORKERS:
            wall, model[workers] = live_rate(
                agent, skills, fake.base_url, n, workers, Path(tmp) / "cache"
            )
            per_decision[workers] = wall / n
            print(
                f"  live, {workers} worker(s): {n} decisions in {wall:.1f} s = "
                f"{60 * n / wall:.1f} decisions/min ({wall / n:.2f} s each)"
            )
        overhead = per_decision[1] - bare - model[1]
        print(
            f"  skillbench overhead per decision (1 worker, minus the bare turn and the "
            f"{model[1]:.2f} s model call): {overhead:.2f} s = {100 * overhead / bare:.0f}% "
            "of the bare turn"
        )
        warm = warm_rate(agent, skills, n)
        gain = per_decision[1] / (warm / n)
        print(
            f"  warm process: {n} requests in {warm:.1f} s = {60 * n / warm:.1f} decisions/min "
            f"({warm / n:.2f} s each, start included): {gain:.1f}x the live selector at 1 worker"
        )
        for workers in WORKERS[:2]:
            wall, _ = live_rate(
                agent, skills, fake.base_url, n, workers, Path(tmp) / "cache", "auto"
            )
            print(
                f"  live, warm, {workers} worker(s): {60 * n / wall:.1f} decisions/min "
                f"({wall / n:.2f} s each): {per_decision[workers] / (wall / n):.1f}x cold"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=8, help="decisions per measurement")
    parser.add_argument("--runs", type=int, default=3, help="runs of each start-up figure")
    parser.add_argument("--agents", nargs="+", default=["claude-code", "codex"])
    args = parser.parse_args()
    for agent in args.agents:
        if not agent_available(agent):
            print(f"{agent}: not installed (or not the verified release), skipped")
            continue
        bench(agent, args.decisions, args.runs)


if __name__ == "__main__":
    main()
