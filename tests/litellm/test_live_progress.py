"""``skillbench run``'s progress on stderr for model runs: model decisions per minute, dollars
spent and projected, positive controls; offline runs keep their plain lines. Through the CLI,
with a litellm selector on a scripted server on 127.0.0.1 (the requests of
``llm_helpers.REQUESTS`` at two of its budgets: 96 model decisions)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import GRID, REQUESTS, fake_selector, write_project
from support.fake_openai import FakeOpenAI, default_policy, user_text

import skillbench.cli._progress as progress
from skillbench.cli import main

LIVE = re.compile(r"model (\d+)/(\d+), [\d.,–]+/min  \$([\d.]+) spent(?:, ~\$([\d.]+) projected)?")


SMALL = {**GRID, "budgets": [250, 400]}
"""Two budgets: 96 model decisions, a few seconds of live progress."""


def _run(root: Path, selectors: list[dict[str, Any]], capsys, *extra: str) -> tuple[int, str]:
    root.mkdir(parents=True)
    config = write_project(root, REQUESTS, selectors[0], selectors=selectors, **SMALL)
    capsys.readouterr()
    code = main(["run", str(config), "-o", str(root / "run"), "-j", "1", *extra])
    return code, capsys.readouterr().err


def _rows(run: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]


@pytest.fixture
def every_tick(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A plain progress line at every redraw (not every 15 s), so a short run shows some."""
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))


def test_a_model_run_shows_pace_spend_projection_and_controls(
    every_tick: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI(latency_s=0.02) as server:
        selectors = [{"type": "lexical"}, fake_selector(server.base_url)]
        code, err = _run(tmp_path / "p", selectors, capsys)
    assert code == 0
    rows = _rows(tmp_path / "p" / "run")
    model = [r for r in rows if r["selector"] == "fake" and not r.get("control")]
    assert len(model) == 96
    spent = sum(r["detail"]["cost_usd"] for r in model if not r["detail"]["cached"])
    running = [m for x in err.splitlines() if x.startswith("… replaying") for m in LIVE.finditer(x)]
    mid = [m for m in running if m.group(4) is not None]
    assert mid, err  # some line while the model was still deciding
    for m in mid:
        done, planned, so_far, projected = int(m[1]), int(m[2]), float(m[3]), float(m[4])
        assert planned == 96 and done < planned  # half the run's 192 decisions
        # shown to 4 decimals: the projection is so_far per decision times all 96
        assert projected == pytest.approx(so_far / done * 96, abs=1e-4 * 96 / done + 1e-4)
    [done_line] = [x for x in err.splitlines() if x.startswith("✓ replaying decisions")]
    final = LIVE.search(done_line)
    assert final is not None and final[1] == final[2] == "96" and final[4] is None
    assert float(final[3]) == pytest.approx(spent, abs=5e-5) and spent > 0
    cells = json.loads((tmp_path / "p" / "run" / "summary.json").read_text())["cells"]
    asked = sum(c["controls"]["n"] for c in cells if "controls" in c)
    [controls] = [x for x in err.splitlines() if x.startswith("✓ positive controls")]
    assert controls.endswith(f"controls {asked}/{asked} triggered, every cell passed")


def test_failed_controls_are_named_when_they_finish(
    every_tick: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The model answers in text when asked for git-commit by name: both budgets list it,
    so both control it, and both fail."""

    def refuses_git_commit(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
        if "Use the git-commit skill" in user_text(body):
            return "I would rather not."
        return default_policy(body)

    with FakeOpenAI(policy=refuses_git_commit) as server:
        code, err = _run(tmp_path / "p", [fake_selector(server.base_url)], capsys)
    assert code == 1
    cells = json.loads((tmp_path / "p" / "run" / "summary.json").read_text())["cells"]
    stats = [c["controls"] for c in cells if "controls" in c]
    failed = sum(s["status"] == "controls_failed" for s in stats)
    hits, asked = sum(s["triggered"] for s in stats), sum(s["n"] for s in stats)
    assert failed == 2
    [controls] = [x for x in err.splitlines() if x.startswith("✓ positive controls")]
    assert controls.endswith(
        f"controls {hits}/{asked} triggered, {failed} cell(s) failed (below 95%)"
    )


def test_offline_runs_are_not_noisier(
    every_tick: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _run(tmp_path / "p", [{"type": "lexical"}], capsys)
    assert code == 0
    lines = err.splitlines()
    [done] = [x for x in lines if x.startswith("✓ replaying")]
    assert re.fullmatch(r"✓ replaying decisions 96/96  \d+:\d\d", done)
    assert not any("model" in x or "$" in x or "controls" in x for x in lines), err
