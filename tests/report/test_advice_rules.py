"""Advice on synthetic runs whose answer is known by construction.

Each cell is built request by request: which positives the listing shows, which of those the
selector gets right, which negatives it falsely triggers on. The expected numbers below are
worked out by hand from those counts (300 requests: 200 needing a skill, 100 needing none).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from synthetic import write_run

from skillbench.report import build_report, to_markdown
from skillbench.report._advice import hidden_skills
from skillbench.report._advice_axes import axis_advice, budget_advice
from skillbench.report._effects import Effects
from skillbench.results import read_run

POSITIVES, NEGATIVES = 200, 100
CONFIG = "selectors:\n  - {type: embedding}\n  - {type: oracle}\n  - {type: never}\n"


def cell(
    *,
    budget: int = 4000,
    ordering: str = "usage",
    selector: str = "embedding",
    profile: str = "codebot",
    shown: int,
    right: range | int,
    false: int = 0,
    expected: str = "review",
) -> list[dict[str, Any]]:
    """One cell: positives p000… shown while i < ``shown``, right when i in ``right``; the
    first ``false`` negatives falsely trigger."""
    right = range(right) if isinstance(right, int) else right
    rows = []
    for i in range(POSITIVES + NEGATIVES):
        positive = i < POSITIVES
        visible = positive and i < shown
        if positive:
            ok = visible and i in right
            outcome, chosen = ("correct_skill", expected) if ok else ("missed", None)
        else:
            trig = i - POSITIVES < false
            outcome, chosen = ("false_trigger", "other") if trig else ("correct_abstain", None)
        rows.append(
            {
                "catalog": "base",
                "profile": profile,
                "budget": budget,
                "ordering": ordering,
                "half_life": "7d",
                "selector": selector,
                "repeat": 0,
                "request_id": f"p{i:03d}" if positive else f"n{i:03d}",
                "expected": [expected] if positive else [],
                "chosen": chosen,
                "outcome": outcome,
                "visible": visible if positive else None,
                "gold_position": 0 if visible else None,
                "listing_chars": budget - 10,
                "listing_tokens": (budget - 10) // 4,
                "latency_ms": 1.0,
                "shown": 10,
                "tags": ["normal"] if positive else ["negative"],
                "split": "test",
            }
        )
    return rows


def _run(tmp_path: Path, rows: list[dict[str, Any]], config: str = CONFIG):
    path = write_run(tmp_path / "run", rows)
    (path / "config.yaml").write_text(config)
    return read_run(path)


def _oracle_and_never(budget: int, shown: int) -> list[dict[str, Any]]:
    return cell(budget=budget, selector="oracle", shown=shown, right=shown) + cell(
        budget=budget, selector="never", shown=shown, right=0
    )


def test_selector_limited(tmp_path: Path) -> None:
    """Coverage 0.60 → 0.95 → 0.98 while recall when shown stays 0.5 and false triggers
    rise: the budget is not what keeps the selector from the oracle."""
    rows = []
    for budget, shown, false in ((1000, 120, 10), (2000, 190, 20), (4000, 196, 30)):
        rows += cell(budget=budget, shown=shown, right=shown // 2, false=false)
        rows += _oracle_and_never(budget, shown)
    run = _run(tmp_path, rows)
    lines = budget_advice(run, Effects(run))
    assert len(lines) == 2  # the embedding line, then the baselines note
    line = lines[0]
    assert line.startswith("**ordering=usage selector=embedding**") is False  # one line: no label
    assert "shows 0.980 of the expected skills" in line
    assert "at most 0.020 of them" in line
    assert "recall when shown is 0.500 → 0.500 → 0.500" in line
    # oracle at 4000: (196 + 100) / 300; embedding: (98 + 70) / 300
    assert "the oracle reaches accuracy 0.987 on the same listing against 0.560 here" in line
    assert "**the gap is the selector's, not the budget's**" in line
    assert "try larger budgets" not in line
    assert "False invocations on requests needing no skill rise with the budget " in line
    assert "(0.100 → 0.200 → 0.300; Δ +0.200 [" in line
    assert lines[1].startswith("No advice for `never`, `oracle`: baselines")
    assert not any("remaining errors" in x for x in lines)


def test_budget_limited(tmp_path: Path) -> None:
    """Coverage 0.3 → 0.5 → 0.7 with recall when shown 0.9: more budget, more accuracy."""
    rows = []
    for budget, shown in ((1000, 60), (2000, 100), (4000, 140)):
        rows += cell(budget=budget, shown=shown, right=shown * 9 // 10)
        rows += _oracle_and_never(budget, shown)
    run = _run(tmp_path, rows)
    (line, _) = budget_advice(run, Effects(run))
    # accuracy (54+100)/300 → (90+100)/300 → (126+100)/300; last step +36/300
    assert "accuracy still rises at the largest budget (0.513 → 0.633 → 0.753" in line
    assert "last step Δ +0.120 [" in line
    assert "shows only 0.700 of the expected skills: **the budget limits accuracy**" in line
    assert "try larger budgets" in line
    assert "most of the gap is the selector's" not in line  # 0.18 reachable > 0.047 gap


def test_ordering_effect(tmp_path: Path) -> None:
    """usage is right on 150 positives, alpha on the first 100 of them: +50/300."""
    rows = cell(shown=200, right=150) + cell(ordering="alpha", shown=200, right=100)
    run = _run(tmp_path, rows)
    (line,) = axis_advice(run, Effects(run), "ordering")
    assert line.startswith("ordering **usage** (0.833) beats alpha 0.667 (Δ +0.167 [")
    assert line.endswith(": use usage.")


def test_null_ordering_effect(tmp_path: Path) -> None:
    """usage right on p000–p099, alpha on p005–p105: 5 discordant one way, 6 the other."""
    rows = cell(shown=200, right=100) + cell(ordering="alpha", shown=200, right=range(5, 106))
    run = _run(tmp_path, rows)
    (line,) = axis_advice(run, Effects(run), "ordering")
    # (101 + 100) / 300 vs (100 + 100) / 300
    assert line.startswith("ordering **alpha** (0.670) is not distinguishable from usage 0.667")
    assert "(Δ +0.003 [" in line
    assert "no detectable ordering effect" in line


def test_advice_never_pools_profiles(tmp_path: Path) -> None:
    """codebot at budget 200 shows nothing; another profile at 200 shows everything."""
    rows = cell(budget=200, shown=0, right=0) + cell(
        budget=200, profile="codex", shown=200, right=200
    )
    run = _run(tmp_path, rows)
    lines = hidden_skills(run)
    assert (
        lines[0]
        == "At profile codebot, budget 200: 1 of 1 expected skills was never shown: `review`."
    )
    assert not any(x.startswith("Every expected skill") for x in lines)
    (line,) = axis_advice(run, Effects(run), "profile")
    assert line.startswith("profile **codex** (1.000) beats codebot 0.333")


def test_report_headline_leads_with_the_best_cell_and_each_field(tmp_path: Path) -> None:
    rows = []
    for ordering, boost in (("usage", 20), ("alpha", 0)):
        for budget, shown in ((1000, 100), (4000, 180)):
            rows += cell(budget=budget, ordering=ordering, shown=shown, right=shown // 2 + boost)
            rows += _oracle_and_never(budget, shown) if ordering == "usage" else []
    run = _run(tmp_path, rows)
    md = to_markdown(build_report(run))
    head = md[md.index("## Headline") : md.index("## What to do")]
    # best: usage at 4000, (110 + 100) / 300 = 0.700, ranked on the named objective
    assert "**Best cell on accuracy** (the objective; right answers" in head
    assert "**budget=4000 ordering=usage selector=embedding**, accuracy **0.700**" in head
    assert "unwanted_invocation_rate 0.000" in head  # no false trigger in any cell
    # Δ accuracy, its interval, then Δ unwanted_invocation_rate (no false triggers: 0)
    assert "| budget | 4000 vs 1000 | +0.133 |" in head  # (110 − 70) / 300
    assert "| ordering | usage vs alpha | +0.067 |" in head  # 20 / 300
    assert head.count("| +0.000 |") == 2
    # baselines are not rivals: no row where the "best" loses to the oracle, a line apart
    assert "vs oracle" not in head and "| selector |" not in head
    # the oracle at 4000 is right on all 180 shown and the 100 negatives: 280 / 300; never
    # on the 100 negatives only
    assert "Baselines on the same listing (accuracy): oracle 0.933, never 0.333" in head
    assert md.index("## Headline") < md.index("## What to do") < md.index("## By tag")
    assert "### Ordering" in md and "### Budget" in md
    # coverage is the listing's: the oracle and never lines would hide under embedding's
    assert "Selectors shown the same listings share one line. " in md


@pytest.mark.parametrize("ordering", ["usage", "rotate:3"])
def test_position_plot_only_where_orderings_move_skills(tmp_path: Path, ordering: str) -> None:
    rows = cell(ordering=ordering, shown=200, right=120)
    for i, row in enumerate(rows):
        if row["visible"]:
            row["gold_position"] = i % 4
    run = _run(tmp_path, rows)
    md = to_markdown(build_report(run))
    part = md[md.index("**Recall by the expected skill's position") :]
    if ordering == "usage":
        assert "Omitted: no cell uses an ordering that moves skills" in part[:600]
    else:
        assert "(plots/by_position.png)" in part[:300]
        assert "`embedding` score each entry on its own" in part[:1200]
