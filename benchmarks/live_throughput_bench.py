"""Live decisions: what the agent CLI's start-up costs, and what a warm process would save.

Per installed agent (Claude Code and Codex by default):

- ``version``: a bare ``CLI --version`` (the process and its runtime starting);
- ``bare turn``: one non-interactive turn with no skills against a loopback model that
  answers at once: the CLI's own cost of a turn;
- ``live``: decisions per minute of the ``agent`` selector (a fresh workspace and one CLI
  process per decision, skills installed, the turn forwarded through the bridge to the
  scripted model) at 1, 2 and 4 workers, and skillbench's overhead per decision
  at 1 worker (its time per decision minus the bare turn), as a share of the bare turn;
- ``warm``: decisions per minute of one warm process (``skillbench.agents.warm_agent``),
  each request a fresh conversation, and its gain over the live selector at 1 worker;
- ``live, warm``: the ``agent`` selector with ``warm: auto`` (its queries share one listing,
  so each worker answers its share in one warm process) at 1 and 2 workers; the ``live``
  lines above run it with ``warm: off``.
- ``warm cell vs its floor``: side by side, ``--runs`` times (cell, floor, cell, floor, ...,
  after one round of each not counted), the warm cell at 1 worker and its floor, a bare warm
  process of the same CLI with the same skills: decisions per minute of each and the cell's
  share of the floor (goal: 90%). Both talk to one scripted model served from a process of
  its own (``scripted_model.py``): the cell through its loopback recorder, the bridge and
  litellm over chat completions, the floor directly in the agent's own API (no recorder,
  bridge, litellm or check), each conversation's first turn answered by the same script;
- ``default cell``: a usage-ordered Claude Code cell whose budget cuts a description, one
  request at a time as ``run`` sends them (each listing follows the decisions before), cold
  and warm, and the warm/cold ratio (goal: 2x).

The cell asks the scripted model for ``--model`` (default ``openai/fake``, a name litellm has
no price for, which it looks up in its cost map twice a call; ``openai/gpt-4o-mini`` is one it
prices): the script answers any name. Figures depend on the machine and its load: they are
printed, not recorded anywhere.

    .venv/bin/python benchmarks/live_throughput_bench.py [--decisions 8] [--agents codex]
    .venv/bin/python benchmarks/live_throughput_bench.py --floor --runs 5 --decisions 16
    .venv/bin/python benchmarks/live_throughput_bench.py --floor --model openai/gpt-4o-mini
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, cast

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from skillbench.agents import (  # noqa: E402
    AGENTS,
    Recorded,
    Recorder,
    Turn,
    Workspace,
    agent_available,
    agent_version,
    find_executable,
    run_turn,
    warm_agent,
)
from skillbench.catalog import SourceSpec, load_catalog  # noqa: E402
from skillbench.dataset import LabelledRequest  # noqa: E402
from skillbench.listing import render_listing  # noqa: E402
from skillbench.selectors import SELECTORS, Query, SelectorEnv  # noqa: E402
from skillbench.types import LISTING_MISMATCH  # noqa: E402
from tests.agents.test_live_selector import SKILLS  # noqa: E402

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


MODEL = "openai/fake"
"""The model the cells ask for (``--model``)."""


class Rate(NamedTuple):
    """Wall seconds of a cell's decisions, and the mean seconds of their model call (the
    bridge forwarding it to the loopback model) and of the bridge's processor time in it."""

    wall: float
    model: float
    bridge_cpu: float


def live_rate(
    agent: str, skills: Path, url: str, n: int, workers: int, cache: Path, warm: str = "off"
) -> Rate:
    """``n`` live decisions of the agent selector at ``workers``."""
    sources = [SourceSpec(str(skills / name), "project") for name in SKILLS]
    catalog = load_catalog(sources, profile=agent)
    listing = render_listing(catalog.skills, profile=agent, ordering="alpha")
    texts = prompts(n, f"w{workers}")
    queries = [Query(LabelledRequest(f"r{i}", t), listing) for i, t in enumerate(texts)]
    env = SelectorEnv(cache, max_concurrency=workers, quiet=True)
    params = {"agent": agent, "model": MODEL, "api_base": url, "cache": False}
    params["warm"] = warm
    selector = SELECTORS.get("agent")(params, env)
    start = time.perf_counter()
    decisions = selector.select(queries)
    wall = time.perf_counter() - start
    selector.pool.close()
    errors = [d.detail.get("error") for d in decisions if d.kind == "error"]
    assert not errors, errors[:2]
    model = statistics.mean(float(d.detail["model_latency_ms"]) / 1000 for d in decisions)
    cpu = statistics.mean(float(d.detail["bridge_cpu_ms"]) / 1000 for d in decisions)
    return Rate(wall, model, cpu)


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


class ScriptedServer:
    """``scripted_model.py`` in a process of its own: the one model both sides talk to."""

    def __init__(self, agents: list[str]) -> None:
        command = [sys.executable, str(REPO / "benchmarks" / "scripted_model.py"), *agents]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        if not self.url:
            self.close()
            raise RuntimeError("the scripted model did not start")

    @property
    def api_base(self) -> str:
        """Where litellm reaches it (an OpenAI-compatible base)."""
        return f"{self.url}/v1"

    def stats(self) -> dict[str, int]:
        """Requests answered so far with the script and with ``DONE``, by path."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("stats\n")
        self.process.stdin.flush()
        return dict(json.loads(self.process.stdout.readline()))

    def scripted(self) -> int:
        """Requests answered with the script so far."""
        return sum(n for key, n in self.stats().items() if key.startswith("script "))

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> ScriptedServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Endpoint(NamedTuple):
    """What a warm process needs of its model endpoint: the address, and a list of the
    requests it recorded (none here: the bare process talks to the model directly)."""

    base_url: str
    requests: list[Recorded]


def floor_rate(agent: str, skills: Path, server: ScriptedServer, n: int) -> float:
    """Wall seconds of ``n`` requests through one bare warm process talking straight to the
    scripted model (its start included, as the warm cell's is; its end not, as the cell's
    pooled process ends after the cell)."""
    spec = AGENTS.get(agent)
    before = server.scripted()
    with tempfile.TemporaryDirectory(prefix="skillbench-floor-") as tmp:
        workspace = workspace_in(Path(tmp))
        args = spec.lay_out(
            [SourceSpec(str(skills / name), "project") for name in SKILLS], workspace
        )
        spec.configure(workspace, {}, {})
        endpoint = cast(Recorder, Endpoint(server.url, []))
        start = time.perf_counter()
        with warm_agent(agent, find_executable(spec), workspace, endpoint, args=args) as warm:
            for text in prompts(n, "floor"):
                warm.ask(text)
            wall = time.perf_counter() - start
    answered = server.scripted() - before
    assert answered == n, f"the floor's model answered {answered} of {n} with the script"
    return wall


def side_by_side(
    agent: str, skills: Path, server: ScriptedServer, n: int, runs: int, cache: Path
) -> None:
    """The warm cell at 1 worker and its floor, alternately (cell, floor, cell, floor, ...),
    ``runs`` times after one round of each not counted (the first selector of a process
    learns the agent's own skills with one cold turn; the first processes warm the disk
    cache)."""
    start = time.perf_counter()
    live_rate(agent, skills, server.api_base, n, 1, cache, "auto")
    first = time.perf_counter() - start
    floor_rate(agent, skills, server, n)
    shares, cells, floors, models, cpus = [], [], [], [], []
    for _ in range(runs):
        wall, model, cpu = live_rate(agent, skills, server.api_base, n, 1, cache, "auto")
        bare = floor_rate(agent, skills, server, n)
        cells.append(60 * n / wall)
        floors.append(60 * n / bare)
        models.append(model)
        cpus.append(cpu)
        shares.append(bare / wall)
    print(
        f"  warm cell vs its floor (1 worker, {n} decisions, median of {runs}, both on the "
        f"scripted model's own process): cell {statistics.median(cells):.1f} vs floor "
        f"{statistics.median(floors):.1f} decisions/min = {100 * statistics.median(shares):.0f}% "
        f"of the floor (each run: {', '.join(f'{100 * x:.0f}%' for x in shares)}; "
        f"range {100 * min(shares):.0f}-{100 * max(shares):.0f}%; goal 90%); the bridge's model "
        f"call ({MODEL}) {1000 * statistics.median(models):.0f} ms a decision, "
        f"{1000 * statistics.median(cpus):.0f} ms of it the bridge's processor time; the first "
        f"cell, not counted: {60 * n / first:.1f} decisions/min; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )


def default_cell(skills: Path, url: str, n: int, cache: Path) -> None:
    """Claude Code's usage-ordered cell, its budget cutting one description, one request at
    a time (usage updated after each decision), cold then warm."""
    agent = "claude-code"
    sources = [SourceSpec(str(skills / name), "project") for name in SKILLS]
    catalog = load_catalog(sources, profile=agent)
    whole = render_listing(catalog.skills, profile=agent, ordering=agent).used
    assert whole is not None
    rates: dict[str, float] = {}
    seen: dict[str, list[tuple[str | None, object]]] = {"off": [], "auto": []}
    for warm in ("off", "auto"):
        env = SelectorEnv(cache, max_concurrency=1, quiet=True)
        params = {"agent": agent, "model": MODEL, "api_base": url, "cache": False}
        selector = SELECTORS.get("agent")({**params, "warm": warm}, env)
        usage: dict[str, float] = {}
        start = time.perf_counter()
        for i, text in enumerate(prompts(n, f"usage-{warm}")):
            listing = render_listing(
                catalog.skills, profile=agent, ordering=agent, budget=whole - 2, scores=usage
            )
            query = Query(LabelledRequest(f"r{i}", text), listing, usage=dict(usage))
            decision = selector.select([query])[0]
            assert decision.kind != "error", decision.detail.get("error")
            seen[warm].append((decision.chosen, decision.detail.get(LISTING_MISMATCH)))
            if decision.chosen:
                usage[decision.chosen] = usage.get(decision.chosen, 0.0) + 1.0
        rates[warm] = 60 * n / (time.perf_counter() - start)
        selector.pool.close()
    print(
        f"  default cell (usage order, budget cutting a description, 1 request at a time): "
        f"cold {rates['off']:.1f}, warm {rates['auto']:.1f} decisions/min = "
        f"{rates['auto'] / rates['off']:.1f}x cold (goal 2x); warm decisions and listing "
        f"checks {'equal' if seen['off'] == seen['auto'] else 'DIFFERENT from'} cold; "
        f"load {os.getloadavg()[0]:.1f}",
        flush=True,
    )


def bench(agent: str, n: int, runs: int) -> None:
    executable = find_executable(AGENTS.get(agent))
    version = median_time(
        lambda: subprocess.run([executable, "--version"], capture_output=True, check=True), runs
    )
    bare = median_time(lambda: bare_turn(agent, executable), runs)
    print(f"{agent}: --version {version:.2f} s, bare turn {bare:.2f} s (median of {runs})")
    with tempfile.TemporaryDirectory() as tmp, ScriptedServer([agent]) as server:
        skills = skills_folder(Path(tmp) / "skills")
        url = server.api_base
        per_decision, model = {}, {}
        for workers in WORKERS:
            wall, model[workers], _ = live_rate(agent, skills, url, n, workers, Path(tmp) / "cache")
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
            wall = live_rate(agent, skills, url, n, workers, Path(tmp) / "cache", "auto").wall
            print(
                f"  live, warm, {workers} worker(s): {60 * n / wall:.1f} decisions/min "
                f"({wall / n:.2f} s each): {per_decision[workers] / (wall / n):.1f}x cold"
            )
        side_by_side(agent, skills, server, n, runs, Path(tmp) / "cache")
        if agent == "claude-code":
            default_cell(skills, url, n, Path(tmp) / "cache")


def floor_only(agent: str, n: int, runs: int) -> None:
    """Only the side-by-side and default-cell figures (``--floor``)."""
    with tempfile.TemporaryDirectory() as tmp, ScriptedServer([agent]) as server:
        skills = skills_folder(Path(tmp) / "skills")
        print(f"{agent} {agent_version(find_executable(AGENTS.get(agent)))}:", flush=True)
        side_by_side(agent, skills, server, n, runs, Path(tmp) / "cache")
        if agent == "claude-code":
            default_cell(skills, server.api_base, n, Path(tmp) / "cache")


def main() -> None:
    global MODEL
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=8, help="decisions per measurement")
    parser.add_argument("--runs", type=int, default=3, help="runs of each start-up figure")
    parser.add_argument("--agents", nargs="+", default=["claude-code", "codex"])
    parser.add_argument(
        "--floor",
        action="store_true",
        help="only the warm cell beside its floor, and the default cell",
    )
    parser.add_argument("--model", default=MODEL, help="the model the cells ask for")
    args = parser.parse_args()
    MODEL = args.model
    for agent in args.agents:
        if not agent_available(agent):
            print(f"{agent}: not installed (or not the verified release), skipped")
            continue
        if args.floor:
            floor_only(agent, args.decisions, args.runs)
        else:
            bench(agent, args.decisions, args.runs)


if __name__ == "__main__":
    main()
