"""Adaptive repeats against the scripted loopback model: the same verdicts as full repeats,
fewer calls, and the saved calls counted where the run says so."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import calls, fake_selector, write_project
from support.fake_openai import FakeOpenAI, default_policy, user_text

from skillbench._errors import SkillbenchError
from skillbench.cli import main
from skillbench.metrics import group_repeats
from skillbench.replay import load_config, run_experiment
from skillbench.results import read_run

SKILL = json.dumps({"skill": "pdf-merge"})
WRONG = json.dumps({"skill": "weather"})
SCRIPT = {
    # text: what the model does on its 1st, 2nd and 3rd call of the request ("T" triggers)
    "merge these pdf scans": ("F", "F", "F"),  # positive, 0/3
    "combine the pdf invoices": ("F", "F", "T"),  # positive, 1/3
    "join the pdf chapters": ("T", "F", "T"),  # positive, 2/3
    "merge pdf reports now": ("T", "T", "T"),  # positive, 3/3
    "what is the capital of peru": ("F", "F", "F"),  # negative, 0/3
    "tell me a joke about cats": ("T", "F", "F"),  # negative, 1/3
    "how tall is mount fuji": ("T", "T", "F"),  # negative, 2/3
    "translate hello into german": ("T", "T", "T"),  # negative, 3/3
}
POSITIVES = {text for text in SCRIPT if "pdf" in text}
REQUESTS = [
    {"id": f"r{i}", "text": text, "expected": "pdf-merge" if text in POSITIVES else None}
    for i, text in enumerate(SCRIPT)
]
PASSES = {"r0": False, "r1": False, "r2": True, "r3": True}
PASSES |= {"r4": True, "r5": True, "r6": False, "r7": False}
"""By hand at the 0.5 rule: a positive passes at 2/3 or 3/3, a negative at 0/3 or 1/3."""


class Scripted:
    """The n-th call of a scripted request gets its n-th answer (with ``fixed``, always its
    first); anything else (the pre-flight probe) the default policy's."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.fixed = False

    def __call__(self, body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
        text = user_text(body)
        if text not in SCRIPT:
            return default_policy(body)
        with self.lock:
            n = 0 if self.fixed else self.seen[text]
            self.seen[text] += 1
        if SCRIPT[text][n % 3] == "F":
            return "No skill applies; answering directly."
        return [("Skill", SKILL if text in POSITIVES else WRONG)]


@pytest.fixture
def scripted() -> Scripted:
    return Scripted()


@pytest.fixture
def fake(scripted: Scripted) -> Any:
    with FakeOpenAI(policy=scripted) as server:
        yield server


def project(root: Path, fake: FakeOpenAI, repeats: int = 3, **config: Any) -> Path:
    selector = fake_selector(fake.base_url, cache=False)
    root.mkdir(parents=True, exist_ok=True)
    # No positive controls: the calls counted here are the requests' own.
    config = {"orderings": ["alpha"], "repeats": repeats, "controls": {"per_cell": 0}, **config}
    return write_project(root, REQUESTS, selector, output_dir=str(root / "run"), **config)


def verdicts(run_dir: Path) -> dict[str, bool]:
    (cell,) = group_repeats(read_run(run_dir).rows).values()
    return {r.request_id: r.passes_threshold(0.5) for r in cell}


@pytest.mark.parametrize("ordering", ["alpha", "usage"])
def test_adaptive_repeats_give_the_verdicts_of_full_repeats_with_fewer_calls(
    tmp_path: Path, fake: FakeOpenAI, scripted: Scripted, ordering: str
) -> None:
    """``usage`` makes each repeat's listing follow its own choices (one query at a time)."""
    full = run_experiment(load_config(project(tmp_path / "full", fake, orderings=[ordering])))
    full_calls = len(calls(fake.bodies))
    fake.reset()
    scripted.seen.clear()
    adaptive_project = project(
        tmp_path / "adaptive", fake, orderings=[ordering], repeats_mode="adaptive"
    )
    config = load_config(adaptive_project)
    adaptive = run_experiment(config)
    assert full.status == adaptive.status == "complete"
    assert verdicts(full.run_dir) == verdicts(adaptive.run_dir) == PASSES
    # Settled after two repeats, third skipped: r0 (F F), r1 (F F: 1/3 at most), r3 (T T:
    # 2/3 at least), r4 (F F), r6 (T T), r7 (T T). Asked three times: r2 (T F) and r5 (T F),
    # where the third repeat still decides. 6 of 24 calls saved.
    assert full_calls == 24 and len(calls(fake.bodies)) == 18
    rows = read_run(adaptive.run_dir).rows
    assert len(rows) == 18
    marked = {
        r.request_id: r.detail["repeats_skipped"] for r in rows if "repeats_skipped" in r.detail
    }
    assert marked == {rid: [2] for rid in ("r0", "r1", "r3", "r4", "r6", "r7")}
    assert all(r.repeat == 1 for r in rows if r.detail.get("repeats_skipped"))
    (cell,) = read_run(adaptive.run_dir).summary.cells
    assert cell.repeats is not None and cell.repeats.mode == "adaptive"
    assert cell.repeats.skipped == 6
    assert cell.repeats.threshold_accuracy == 0.5
    (plain,) = read_run(full.run_dir).summary.cells
    assert plain.repeats is not None and plain.repeats.skipped is None


def test_a_resumed_adaptive_run_asks_only_what_is_unsettled(
    tmp_path: Path, fake: FakeOpenAI, scripted: Scripted
) -> None:
    """Calls abandoned by the interrupt would take a scripted answer meant for a later
    repeat, so here every request always gets its first answer: two equal answers settle
    each request, 16 decisions are made and 8 repeats skipped, however the run was cut."""
    scripted.fixed = True
    config = load_config(project(tmp_path, fake, repeats_mode="adaptive"))

    def stop_after(done: int, total: int) -> None:
        if done == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_experiment(config, progress=stop_after)
    result = run_experiment(config, resume=True)
    assert result.status == "complete" and result.decisions == 16 and result.resumed >= 7
    # first answers: positives r0, r1 miss, r2, r3 trigger; negatives r4 abstains, r5-r7 invoke
    assert verdicts(result.run_dir) == {**PASSES, "r5": False}
    (cell,) = read_run(result.run_dir).summary.cells
    assert cell.repeats is not None and cell.repeats.skipped == 8


def test_run_prints_the_calls_saved_and_dry_run_the_cost_per_cell(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project(tmp_path, fake, repeats_mode="adaptive")
    assert main(["run", str(config), "--dry-run"]) == 0
    out = capsys.readouterr().out
    # one cell: 8 requests × 3 repeats, none cached, each a distinct prompt
    assert "per model or live cell (every repeat counted; adaptive repeats: the most):" in out
    line = next(x for x in out.splitlines() if "base/codebot/" in x and "calls" in x)
    assert ": 24 calls, ~" in line and "prompt tokens, ~$" in line
    assert fake.requests == 0
    assert main(["run", str(config), "-o", str(tmp_path / "run")]) == 0
    assert "adaptive repeats: 6 repeat(s) settled early and skipped" in capsys.readouterr().out
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "**Adaptive repeats**: 6 repeat(s) were not asked" in report


def test_adaptive_repeats_are_refused_where_they_cannot_work(
    tmp_path: Path, fake: FakeOpenAI
) -> None:
    from skillbench.dataset import InputErrors

    with pytest.raises(InputErrors, match="adaptive repeats need repeats of at least 2"):
        load_config(project(tmp_path / "one", fake, repeats=1, repeats_mode="adaptive"))
    with pytest.raises(InputErrors, match="repeats_ci_width needs repeats_mode: adaptive"):
        load_config(project(tmp_path / "width", fake, repeats_ci_width=0.3))
    config = load_config(project(tmp_path / "ray", fake, repeats_mode="adaptive"))
    with pytest.raises(SkillbenchError, match="local executor"):
        run_experiment(config, executor="ray")


@pytest.mark.parametrize(("width", "rows"), [(None, 24), (0.7, 16)])
def test_an_interval_width_stops_sooner_than_certainty(
    tmp_path: Path, fake: FakeOpenAI, scripted: Scripted, width: float | None, rows: int
) -> None:
    """Five repeats, every answer a request's first. Certainty takes three equal answers
    (3/5 reaches 0.5; after 3 misses at most 2/5 can). The 95% Wilson interval of 0 or 2
    of 2 is 0.658 wide (of 1 of 1: 0.793), so a width of 0.7 stops after two."""
    scripted.fixed = True
    extra = {} if width is None else {"repeats_ci_width": width}
    config = project(tmp_path, fake, repeats=5, repeats_mode="adaptive", **extra)
    result = run_experiment(load_config(config))
    assert result.decisions == rows == len(calls(fake.bodies))
    (cell,) = read_run(result.run_dir).summary.cells
    assert cell.repeats is not None and cell.repeats.skipped == 40 - rows
    assert verdicts(result.run_dir) == {**PASSES, "r5": False}
