"""Shapes real runs have and the first synthetic runs lacked (fast, no engine).

Each test reproduces what broke or read badly on a real run: a by-position rate of 0 whose
Wilson bound lands 1e-17 above it, half-lives that change nothing, no negative requests,
catalogs recorded per variant in the manifest, per-skill cost objects and calibrated cells.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from synthetic import paired_rows, sweep_rows, write_run

from skillbench.report import (
    compare_runs,
    distinct,
    inert_keys,
    parse_selection,
    varying_keys,
    write_report,
)
from skillbench.report._advice_axes import budget_advice
from skillbench.report._effects import Effects
from skillbench.report._figure import error_bars
from skillbench.report._plots import position_bins
from skillbench.results import read_run


def _missed_at(position: int, n: int) -> list[dict]:
    rows = paired_rows([False] * n)
    for row in rows:
        row["gold_position"] = position
        row["ordering"] = "random"  # the position plot needs an ordering that moves skills
    return rows


def test_position_rate_of_zero_does_not_break_the_report(tmp_path: Path) -> None:
    """The MetaTool failure: "'yerr' must not contain negative values" (a Wilson bound that
    landed 1e-17 past a rate of 0)."""
    rows = _missed_at(49, 6) + [
        {**r, "request_id": f"x{i}", "ordering": "random"}
        for i, r in enumerate(paired_rows([True] * 4))
    ]
    run = write_run(tmp_path / "run", rows)
    write_report(run, formats=["md"])
    assert (run / "plots" / "by_position.png").stat().st_size > 5_000


def test_error_bars_clamp_and_skip_missing_bounds() -> None:
    below, above = error_bars(
        [0.0, 1.0, 0.5, 0.5, math.nan],
        [(2.8e-17, 0.4), (0.6, 1.0 - 1e-16), None, (None, 0.7), (0.1, 0.2)],
    )
    assert below == [0.0, pytest.approx(0.4), 0.0, 0.0, 0.0]
    assert above == [pytest.approx(0.4), 0.0, 0.0, 0.0, 0.0]


def test_position_bins_pool_the_far_tail() -> None:
    assert position_bins(4) == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]
    assert position_bins(73)[-3:] == [(10, 19), (20, 39), (40, 79)]


def test_a_half_life_that_changes_nothing_is_reported_once(tmp_path: Path) -> None:
    rows = sweep_rows(budgets=(500, 2000), orderings=("usage",), half_lives=("1d",), n_requests=30)
    rows += [{**r, "half_life": "inf"} for r in rows]
    run_dir = write_run(tmp_path / "run", rows)
    run = read_run(run_dir)
    assert varying_keys(run.summary.cells) == ["budget", "half_life"] and inert_keys(
        run.summary.cells
    ) == ["half_life"]
    cells, keys = distinct(run.summary.cells)
    assert len(cells) == len(run.summary.cells) // 2 and keys == ["budget"]
    write_report(run_dir, formats=["md"])
    md = (run_dir / "report.md").read_text()
    assert "**half_life changed no rate**" in md
    assert "Skipped: the half-life changed no decision in this run." in md
    advice = md[md.index("### Budget") : md.index("### Skills never shown")]
    assert advice.count("\n- ") == 1  # one line of advice, not one per half-life


def _line(tmp_path: Path, name: str, right: dict[int, int]) -> str:
    rows = []
    for budget, n in right.items():
        rows += [{**r, "budget": budget} for r in paired_rows([True] * n + [False] * (200 - n))]
    run = read_run(write_run(tmp_path / name, rows))
    (line,) = budget_advice(run, Effects(run))
    return line


def test_budget_advice_reads_the_sweep(tmp_path: Path) -> None:
    rows = sweep_rows(budgets=(500, 1000), orderings=("usage",), n_requests=40)
    run = read_run(write_run(tmp_path / "a", rows))  # 4 then 9 of 20 skills shown
    (line,) = budget_advice(run, Effects(run))
    assert "accuracy still rises at the largest budget" in line and "try larger budgets" in line
    # every expected skill shown at every budget: the selector, not the budget, limits
    line = _line(tmp_path, "b", {1000: 120, 2000: 190, 4000: 191})
    assert "shows 1.000 of the expected skills" in line
    assert "**the gap is the selector's, not the budget's**" in line
    assert (
        "Best accuracy 0.955 at budget 4,000; the smallest budget within one point is "
        "**2,000** (0.950; Δ -0.005 [" in line
    )
    assert line.endswith("200 paired requests), saving 2,000 characters.")
    line = _line(tmp_path, "c", {1000: 120, 2000: 150})
    assert line.endswith(
        "Best accuracy 0.750 at budget **2,000**; no smaller budget comes within one point."
    )


def test_descriptions_from_the_manifest_catalogs(tmp_path: Path) -> None:
    skills = {"review": "Review changes. " * 20, "refactor": "R."}
    run = write_run(tmp_path / "run", paired_rows([True, False] * 5), skills=skills)
    write_report(run, formats=["md"])
    md = (run / "report.md").read_text()
    line = next(x for x in md.splitlines() if "requests went to `refactor`" in x)
    assert "“Review changes. Review" in line and "…” vs “R.”" in line  # long text cut


def test_no_negatives_no_empty_column(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", paired_rows([True, False] * 5))
    write_report(run, formats=["md"])
    md = (run / "report.md").read_text()
    cells = md[md.index("## Cells") : md.index("## Plots")]
    assert "false inv. rate" not in cells and "– –" not in cells


def test_cost_objects_give_break_even_and_a_cost_table(tmp_path: Path) -> None:
    rows = paired_rows([True] * 6 + [False] * 2)
    run = write_run(tmp_path / "run", rows)
    summary = json.loads((run / "summary.json").read_text())

    def skill(invocations: int, inline: int, fork: int, turns: int | None) -> dict[str, Any]:
        return {
            "invocations": invocations,
            "declared": "inline",
            "inline_tokens": inline,
            "fork_tokens": fork,
            "inline_tokens_mean": inline / invocations,
            "fork_tokens_mean": fork / invocations,
            "break_even_turns": turns,
        }

    summary["cells"][0]["cost"] = {
        "decisions": 8,
        "invocations": 8,
        "listing_tokens": 800,
        "inline_tokens": 2400,
        "fork_tokens": 9000,
        "declared_tokens": 2400,
        "main_context_tokens": 3200,
        "all_tokens": 3200,
        "waste_tokens": 600,
        "listing_dollars": None,
        "inline_dollars": None,
        "fork_dollars": None,
        "dollars": None,
        "dollars_cached": None,
        "model": "gpt-4o",
        "horizon": None,
        "fork_system_prompt_tokens": 0,
        "fork_work_tokens": 0,
        "summary_tokens": 0,
        "measured_summaries": None,
        "sessions": {
            "n": 8,
            "mean_main_context_tokens": 400.0,
            "max_main_context_tokens": 500,
            "mean_dollars": None,
        },
        "per_skill": {"review": skill(6, 1800, 6600, 7), "refactor": skill(2, 600, 2400, None)},
    }
    (run / "summary.json").write_text(json.dumps(summary))
    (run / "results.jsonl").unlink()  # the plot falls back on cost.per_skill
    write_report(run, formats=["md"])
    md = (run / "report.md").read_text()
    assert "(plots/inline_vs_fork.png)" in md and "“from N turns left”" in md
    table = md[md.index("### Token cost per cell") :]
    assert "| listing tokens | inline tokens | fork tokens |" in table and "| 2,400 |" in table


def test_compare_leaves_out_a_calibration_split(tmp_path: Path) -> None:
    calibrated = paired_rows([True] * 20)
    for row in calibrated[:8]:
        row["split"] = "train"
    a = write_run(tmp_path / "a", calibrated)
    b = write_run(tmp_path / "b", paired_rows([False] * 8 + [True] * 12))
    (r,) = compare_runs(parse_selection(str(a)), parse_selection(str(b)), resamples=200).results
    assert (r.n_requests, r.held_out) == (12, 8)
    assert r.value_a == r.value_b == 1.0  # the 8 wrong answers in B are the held-out ones
