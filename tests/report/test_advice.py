"""The "What to do" section on the shapes the bundled configs produce.

Each test pins one thing a real run got wrong: a skill hidden everywhere but co-expected with
a shown one, budget advice for baselines, advice contradicting what we measured about
negations, and the half-life section.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

from synthetic import paired_rows, sweep_rows, write_run

from skillbench.report import write_report
from skillbench.report._advice import confused_pairs, hidden_skills
from skillbench.report._advice_axes import budget_advice
from skillbench.report._advice_half_life import half_life_advice
from skillbench.report._effects import Effects
from skillbench.report._plots_timeline import timeline_by_half_life
from skillbench.report._run import half_life_order
from skillbench.results import read_run


def _row(rid: str, expected: list[str], visible: bool, budget: int, chars: int) -> dict[str, Any]:
    (row,) = paired_rows([False])
    return {
        **row,
        "request_id": rid,
        "expected": expected,
        "visible": visible,
        "budget": budget,
        "listing_chars": chars,
        "chosen": None,
        "outcome": "missed",
        "gold_position": 0 if visible else None,
    }


def _terraform_run(tmp_path: Path, facts: dict[str, Any]) -> Path:
    """terraform-plan hidden in every row, once co-expected with a shown k8s-manifest;
    ``facts`` replace catalog facts (status counts, statuses) in the manifest."""
    rows = []
    for budget, chars in ((1000, 990), (12000, 8800)):  # the listing fits at 12,000
        rows += [
            _row("r1", ["terraform-plan"], False, budget, chars),
            _row("r2", ["k8s-manifest", "terraform-plan"], True, budget, chars),
            _row("r3", ["k8s-manifest"], True, budget, chars),
            _row("r4", ["review"], budget > 1000, budget, chars),
        ]
    run = write_run(tmp_path / "run", rows)
    manifest = json.loads((run / "manifest.json").read_text())
    for variant in manifest["catalogs"].values():
        variant.update(facts)
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


def test_a_skill_hidden_everywhere_is_listed_with_its_likely_reason(tmp_path: Path) -> None:
    skills = {"terraform-plan": "Plan Terraform.", "k8s-manifest": "Kubernetes.", "review": "R."}
    counts = {"inactive": 1, "disabled": 3, "skills": skills}
    lines = hidden_skills(read_run(_terraform_run(tmp_path, counts)))
    assert lines[0] == (
        "`terraform-plan` was never visible in any decision in any listing setting (2 "
        "requests expect "
        "it; where another expected skill was shown, the rows do not say whether it was too): "
        "not for lack of room (at budget 12,000 the listing used 8,800 characters), so most "
        "likely one of the catalog's 1 inactive (`paths`) and 3 disabled skills (manifest "
        "counts)."
    )
    assert lines[1] == "At budget 1,000: 1 of 3 expected skills was never shown: `review`."
    assert "Every expected skill" not in " ".join(lines)
    assert any("`paths` globs" in line for line in lines)


def test_a_recorded_status_is_the_reason(tmp_path: Path) -> None:
    status = {"status": {"terraform-plan": "inactive"}}
    (line, *_) = hidden_skills(read_run(_terraform_run(tmp_path, status)))
    assert line.endswith("was too): inactive: a `paths` skill no workspace file matches.")


def test_skills_only_co_shown_are_flagged_not_claimed(tmp_path: Path) -> None:
    rows = [
        _row("r1", ["a", "b"], True, 4000, 3900),
        _row("r2", ["a"], True, 4000, 3900),
    ]
    lines = hidden_skills(read_run(write_run(tmp_path / "run", rows)))
    assert lines == [
        "`b`: visible only in decisions expecting another skill too, so whether they were "
        "shown is not recorded."
    ]


def _baseline_run(tmp_path: Path) -> Path:
    rows = [
        {**r, "selector": name}
        for seed, name in enumerate(("embedding", "floor", "random", "oracle"))
        for r in sweep_rows(
            budgets=(500, 1000, 2000, 4000), orderings=("usage",), n_requests=40, seed=seed
        )
    ]
    run = write_run(tmp_path / "run", rows)
    (run / "config.yaml").write_text(
        "selectors:\n  - {type: embedding}\n  - {type: never, name: floor}\n"
        "  - {type: random}\n  - {type: oracle}\n"
    )
    return run


def test_budget_advice_is_for_real_selectors_only(tmp_path: Path) -> None:
    run = read_run(_baseline_run(tmp_path))
    lines = budget_advice(run, Effects(run))
    assert len(lines) == 2
    assert lines[0].startswith("**selector=embedding**: ")
    assert lines[1] == (
        "No advice for `floor`, `oracle`, `random`: baselines (oracle, never, random) are the "
        "references the advice reads against, not systems to tune."
    )


def test_confusion_advice_names_features_not_negations(tmp_path: Path) -> None:
    lines = confused_pairs(read_run(write_run(tmp_path / "run", paired_rows([True, False] * 5))))
    assert lines[0] == (  # descriptions from the manifest
        "`review` requests went to `refactor` 5 times: “Review changes for bugs, regressions, "
        "risks and missing tests.” vs “Improve code structure while preserving behaviour.”"
    )
    advice = lines[1]
    assert "concrete features" in advice and "`skillbench compare" in advice
    assert "rather than saying when *not* to use it" in advice
    assert not advice.startswith("Make these descriptions say when")


def _half_life_rows(correct: dict[str, list[bool]]) -> list[dict[str, Any]]:
    """Lexical gets ``correct``; the oracle is right on the last 5 requests too."""
    rows = []
    for hl, flags in correct.items():
        for selector, extra in (("lexical", 0), ("oracle", 5)):
            mine = flags[: len(flags) - extra] + [True] * extra
            rows += [{**r, "half_life": hl, "selector": selector} for r in paired_rows(mine)]
    return rows


def test_half_life_advice_names_the_best_with_interval_and_ties(tmp_path: Path) -> None:
    run_dir = write_run(
        tmp_path / "run",
        _half_life_rows(
            {
                "7d": [True] * 30 + [False] * 30,
                "inf": [True] * 20 + [False] * 40,
                "1d": [True] * 50 + [False] * 10,
                "12h": [True] * 49 + [False] * 11,
            }
        ),
    )
    lines = half_life_advice(read_run(run_dir))
    assert lines[0] == (
        "**selector=lexical**: best half-life **1d**, accuracy 0.833 [0.720, 0.907]; not "
        "distinguishable from 12h (0.817, p = 1); the others are lower. By half-life: "
        "12h 0.817, 1d 0.833, 7d 0.500, inf 0.333."
    )
    assert len(lines) == 2  # no line for the oracle: a baseline is a reference, not advised
    assert "Bonferroni" in lines[1] and "skillbench compare" in lines[1]
    write_report(run_dir, formats=["md"])
    md = (run_dir / "report.md").read_text()
    assert md.index("### Budget") < md.index("### Half-life") < md.index("### Skills never")
    assert "(plots/timeline.png)" in md


def _height(png: bytes) -> int:
    return struct.unpack(">I", png[20:24])[0]  # IHDR: width, then height


def test_timeline_has_a_panel_per_informative_selector(tmp_path: Path) -> None:
    flags = {"1d": [True] * 40 + [False] * 20, "inf": [True] * 20 + [False] * 40}
    rows = _half_life_rows(flags)
    for i, row in enumerate(rows):
        row["at"] = f"2025-01-{1 + (i % 60) // 3:02d}T{i % 3 * 8:02d}:00:00+00:00"
    two = timeline_by_half_life(read_run(write_run(tmp_path / "two", rows)))
    never = [{**r, "selector": "never"} for r in paired_rows([False] * 60)]
    for hl in flags:
        rows += [{**r, "half_life": hl, "at": rows[i]["at"]} for i, r in enumerate(never)]
    with_never = timeline_by_half_life(read_run(write_run(tmp_path / "three", rows)))
    one = timeline_by_half_life(
        read_run(write_run(tmp_path / "one", [r for r in rows if r["selector"] == "lexical"]))
    )
    assert two.png and with_never.png and one.png
    # baselines (the oracle, never) get no panel: the selectors under test are drawn alone
    assert _height(with_never.png) == _height(two.png) == _height(one.png)
    assert set(two.values["accuracy"]) == set(with_never.values["accuracy"]) == {"lexical"}
    assert "averaged" not in two.caption and "panel" in two.caption


def test_half_lives_sort_by_duration() -> None:
    labels = ["inf", "7d", "12h", "1d", "30d", "1h", "weird"]
    assert sorted(labels, key=half_life_order) == ["1h", "12h", "1d", "7d", "30d", "inf", "weird"]
