"""End-to-end replays over the MetaTool dev split: outputs, determinism, resume, stop."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from skillbench.cli import main
from skillbench.replay import RunStopped, load_config, run_experiment
from skillbench.results import ResultRow, read_rows
from skillbench.selectors import SELECTORS, Decision, OracleSelector, Query, SelectorEnv

CONFIG = """\
name: mt
catalogs:
  metatool: [{{path: {data}/tools.jsonl, source: project}}]
requests: {data}/requests.jsonl
budgets: [1000, 4000]
orderings: [usage, alpha]
half_lives: [1d, inf]
selectors:
{selectors}
seed: 3
"""
BASELINES = "  - {type: oracle}\n  - {type: lexical}\n  - {type: never}\n"


class _Failing:
    """Oracle that raises after ``after`` decisions: a Ctrl-C or a spend cap mid-run."""

    name = "failing"
    armed = True

    def __init__(self, after: int, stop: bool) -> None:
        self.after, self.stop, self.done = after, stop, 0
        self.inner = OracleSelector()

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        if self.armed and self.done + len(queries) > self.after:
            raise RunStopped("spend cap reached") if self.stop else KeyboardInterrupt()
        self.done += len(queries)
        return self.inner.select(queries)


def _failing(params: Mapping[str, Any], env: SelectorEnv) -> _Failing:
    return _Failing(int(params["after"]), bool(params.get("stop", False)))


class _Counting(OracleSelector):
    """Oracle that records the size of every ``select`` batch."""

    batches: ClassVar[list[int]] = []

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        self.batches.append(len(queries))
        return super().select(queries)


def _counting(params: Mapping[str, Any], env: SelectorEnv) -> _Counting:
    return _Counting()


@pytest.fixture(autouse=True)
def _test_selectors() -> Iterator[None]:
    """The two test selectors, registered for each test and removed after it."""
    with (
        SELECTORS.temporarily("test-failing", _failing),
        SELECTORS.temporarily("test-counting", _counting),
    ):
        yield


def _config(tmp_path: Path, data: Path, selectors: str = BASELINES, extra: str = "") -> Path:
    path = tmp_path / "mt.yaml"
    path.write_text(CONFIG.format(data=data, selectors=selectors) + extra, encoding="utf-8")
    return path


def _strip_timing(path: Path) -> list[ResultRow]:
    return [row.model_copy(update={"latency_ms": 0.0}) for row in read_rows(path)]


@pytest.fixture
def metatool(shared_data: Path) -> Path:
    return shared_data / "metatool-dev"


@pytest.mark.slow
def test_run_end_to_end_and_deterministic(tmp_path: Path, metatool: Path) -> None:
    config = _config(tmp_path, metatool)
    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["run", str(config), "-o", str(a), "--limit", "200", "--quiet"]) == 0
    assert main(["run", str(config), "-o", str(b), "--limit", "200", "--quiet"]) == 0
    assert {p.name for p in a.iterdir()} >= {
        "results.jsonl",
        "summary.json",
        "manifest.json",
        "config.yaml",
    }
    rows = read_rows(a / "results.jsonl")
    assert len(rows) == 200 * 2 * 2 * 2 * 3
    assert _strip_timing(a / "results.jsonl") == _strip_timing(b / "results.jsonl")
    assert (a / "summary.json").read_bytes() == (b / "summary.json").read_bytes()
    summary = json.loads((a / "summary.json").read_text())
    cells = {
        (c["budget"], c["ordering"], c["half_life"], c["selector"]): c for c in summary["cells"]
    }
    assert len(cells) == 24
    oracle = cells[4000, "alpha", "inf", "oracle"]
    # The oracle is right exactly when the expected skill is shown, or on negatives.
    cell_rows = [
        r
        for r in rows
        if (r.budget, r.ordering, r.half_life, r.selector) == (4000, "alpha", "inf", "oracle")
    ]
    right = sum(bool(r.visible) or not r.expected for r in cell_rows)
    assert oracle["accuracy"] == pytest.approx(right / 200)
    assert all(r.outcome in ("correct_abstain", "missed") for r in rows if r.selector == "never")
    assert all(r.budget is not None and r.listing_chars <= r.budget + 200 for r in rows)
    manifest = json.loads((a / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["versions"]["skillbench"]


def test_usage_ordering_follows_the_recorded_history(tmp_path: Path, metatool: Path) -> None:
    selectors = "  - {type: oracle}\n"
    labels = load_config(_config(tmp_path, metatool, selectors, extra="usage: {record: label}\n"))
    by = {
        (c.budget, c.ordering, c.half_life): c.metric("coverage") or 0.0
        for c in run_experiment(labels, output=tmp_path / "l", limit=300).cells
    }
    # At a tight budget, promoting recently needed skills shows more expected skills than alpha.
    assert by[1000, "usage", "1d"] > 2 * by[1000, "alpha", "1d"]
    # Recording what was chosen: a skill the budget hides is never chosen, so never promoted.
    chosen = load_config(_config(tmp_path, metatool, selectors))
    by_chosen = {
        (c.budget, c.ordering, c.half_life): c.metric("coverage") or 0.0
        for c in run_experiment(chosen, output=tmp_path / "c", limit=300).cells
    }
    assert by_chosen[1000, "usage", "1d"] < by[1000, "usage", "1d"]


def test_resume_after_interrupt_equals_uninterrupted_run(tmp_path: Path, metatool: Path) -> None:
    full = load_config(_config(tmp_path, metatool, "  - {name: sel, type: oracle}\n"))
    run_experiment(full, output=tmp_path / "full", limit=120)
    failing = _config(tmp_path, metatool, "  - {name: sel, type: test-failing, after: 500}\n")
    cut = load_config(failing)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(cut, output=tmp_path / "cut", limit=120)
    partial = read_rows(tmp_path / "cut" / "results.jsonl")
    assert 0 < len(partial) <= 500
    assert json.loads((tmp_path / "cut" / "manifest.json").read_text())["status"] == "interrupted"
    # Continue the same config (same hash) once the cause of the interruption is gone.
    _Failing.armed = False
    try:
        result = run_experiment(
            load_config(failing), output=tmp_path / "cut", limit=120, resume=True
        )
    finally:
        _Failing.armed = True
    assert result.resumed == len(partial) and result.status == "complete"
    assert _strip_timing(tmp_path / "cut" / "results.jsonl") == _strip_timing(
        tmp_path / "full" / "results.jsonl"
    )


def test_run_stopped_is_recorded_and_resumable(tmp_path: Path, metatool: Path) -> None:
    config = load_config(
        _config(tmp_path, metatool, "  - {name: sel, type: test-failing, after: 500, stop: true}\n")
    )
    result = run_experiment(config, output=tmp_path / "o", limit=100)
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert result.status == manifest["status"] == "stopped"
    assert manifest["stop_reason"] == "spend cap reached"
    # Round one: the alpha cells' 400 queries in one batch, then the usage cells step.
    assert 400 < result.decisions <= 500
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["cells"]


def test_resume_refuses_another_config(tmp_path: Path, metatool: Path) -> None:
    config = load_config(_config(tmp_path, metatool, "  - {type: never}\n"))
    run_experiment(config, output=tmp_path / "o", limit=20)
    other = load_config(_config(tmp_path, metatool, "  - {type: never}\n", extra="repeats: 2\n"))
    with pytest.raises(Exception, match="different config"):
        run_experiment(other, output=tmp_path / "o", limit=20, resume=True)


def test_calibrated_selector_reports_split(tmp_path: Path, metatool: Path) -> None:
    config = load_config(
        _config(
            tmp_path,
            metatool,
            "  - {name: bm25, type: lexical, threshold: auto}\n",
            extra="calibration: {train_fraction: 0.5}\nusage: {record: label}\n",
        )
    )
    result = run_experiment(config, output=tmp_path / "o", limit=200)
    calibration = result.cells[0].calibration
    assert calibration is not None
    assert calibration.train + calibration.test == 200
    assert result.cells[0].n == calibration.test
    assert calibration.fitted[0].threshold >= 0
    rows = read_rows(tmp_path / "o" / "results.jsonl")
    assert {r.split for r in rows} == {"train", "test"}
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["calibration"]["train"] == calibration.train


def test_dry_run_prints_grid_and_runs_nothing(
    tmp_path: Path, metatool: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path, metatool)
    out = tmp_path / "o"
    assert main(["run", str(config), "-o", str(out), "--limit", "50", "--dry-run"]) == 0
    text = capsys.readouterr().out
    assert (
        "50 requests × 24 cells = 1,200 decisions" in text and "selector lexical (lexical)" in text
    )
    assert not (out / "results.jsonl").exists()


def test_cells_with_fixed_listings_batch_and_usage_cells_step(
    tmp_path: Path, metatool: Path
) -> None:
    # codebot + alpha: usage cannot change the listing, so the chosen history need not be
    # waited for and all 60 requests go in one batch per cell (2 budgets × 2 half-lives).
    _Counting.batches = []
    fixed = _config(tmp_path, metatool, "  - {type: test-counting}\n")
    run_experiment(
        load_config(fixed).model_copy(update={"orderings": ["alpha"]}),
        limit=60,
        output=tmp_path / "a",
    )
    assert _Counting.batches == [240]
    # codebot + usage: each decision can reorder the next listing, one query per cell a round.
    _Counting.batches = []
    run_experiment(
        load_config(fixed).model_copy(update={"orderings": ["usage"]}),
        limit=60,
        output=tmp_path / "u",
    )
    assert max(_Counting.batches) == 4 and len(_Counting.batches) == 60


def test_manifest_records_each_catalog_and_is_deterministic(tmp_path: Path, metatool: Path) -> None:
    config = load_config(_config(tmp_path, metatool, "  - {type: never}\n"))
    run_experiment(config, output=tmp_path / "a", limit=10)
    run_experiment(config, output=tmp_path / "b", limit=10)
    a, b = (json.loads((tmp_path / d / "manifest.json").read_text()) for d in "ab")
    tools = [json.loads(line) for line in (metatool / "tools.jsonl").read_text().splitlines()]
    catalog = a["catalogs"]["metatool"]
    assert catalog["count"] == catalog["active"] == len(tools) == len(catalog["skills"])
    assert catalog["skills"]["AI2sql"] == "Converts a natural language text into an SQL query."
    for manifest in (a, b):
        for key in ("started_at", "ended_at"):
            manifest.pop(key)
    assert a == b and a["status"] == "complete" and a["stop_reason"] is None
