"""A skill the listing never showed is no description problem, and plots draw the tables.

One hand-built run: ``terraform-plan`` (an inactive ``paths`` skill) is expected by three
requests the embedding selector sends to ``k8s-manifest``; ``git-rescue`` (shown) goes to
``commit-message`` twice. Two budgets, each with oracle and never baselines. Every expected
number below is counted by hand from the rows written here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from synthetic import write_run

from skillbench.authoring import run_decisions, worst_skills
from skillbench.cli._main import main
from skillbench.report._advice import confused_pairs
from skillbench.report._plots import accuracy_vs_budget, coverage_vs_budget
from skillbench.report._plots_skills import confusion_heatmap, inline_vs_fork
from skillbench.report._report import OVERVIEW_HEADER, _overview_metrics, overview_rows
from skillbench.results import read_run

SKILLS = {
    "terraform-plan": "Write or review Terraform code and explain the planned changes.",
    "k8s-manifest": "Write Kubernetes manifests to deploy a containerised service.",
    "git-rescue": "Recover from git mistakes such as a bad reset or lost commits.",
    "commit-message": "Write a clear git commit message for the staged changes.",
}
# request id, expected, shown, what embedding chose (at budget 2000, at budget 4000)
REQUESTS = [
    *((f"t{i}", "terraform-plan", False, ("k8s-manifest", "k8s-manifest")) for i in range(3)),
    *((f"g{i}", "git-rescue", True, ("commit-message", "commit-message")) for i in range(2)),
    ("c0", "commit-message", True, ("commit-message", "commit-message")),
    ("n0", None, None, (None, "commit-message")),
    ("n1", None, None, (None, None)),
]
ORACLE_TOKENS = 10_000
"""Inline and fork tokens of every oracle invocation: a mean that moved would show them."""


def _outcome(expected: str | None, chosen: str | None, shown: bool | None) -> str:
    if expected is None:
        return "correct_abstain" if chosen is None else "false_trigger"
    if chosen is None:
        return "missed"
    return "correct_skill" if chosen == expected else "wrong_skill"


def _row(
    rid: str,
    selector: str,
    budget: int,
    expected: str | None,
    shown: bool | None,
    chosen: str | None,
    tokens: tuple[int, int] | None,
) -> dict[str, Any]:
    return {
        "catalog": "devtools",
        "profile": "codebot",
        "budget": budget,
        "ordering": "usage",
        "half_life": "7d",
        "selector": selector,
        "repeat": 0,
        "request_id": rid,
        "expected": [expected] if expected else [],
        "chosen": chosen,
        "outcome": _outcome(expected, chosen, shown),
        "visible": shown,
        "gold_position": 0 if shown else None,
        "listing_chars": budget // 2,
        "listing_tokens": budget // 8,
        "shown": 3,
        "latency_ms": 1.0,
        "tags": [],
        "inline_tokens": None if tokens is None else tokens[0],
        "fork_tokens": None if tokens is None else tokens[1],
    }


def _embedding_tokens(rid: str, chosen: str | None) -> tuple[int, int] | None:
    if chosen is None:
        return None
    if chosen == "k8s-manifest":
        return (200, 400)
    return (900, 600) if rid == "c0" else (300, 500)  # c0's two: fork cheaper


def _rows() -> list[dict[str, Any]]:
    rows = []
    for b, budget in enumerate((2000, 4000)):
        for rid, expected, shown, chose in REQUESTS:
            chosen = chose[b]
            rows.append(
                _row(
                    rid,
                    "embedding",
                    budget,
                    expected,
                    shown,
                    chosen,
                    _embedding_tokens(rid, chosen),
                )
            )
            oracle = expected if shown else None
            big = (ORACLE_TOKENS, ORACLE_TOKENS) if oracle else None
            rows.append(_row(rid, "oracle", budget, expected, shown, oracle, big))
            rows.append(_row(rid, "never", budget, expected, shown, None, None))
    return rows


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = write_run(tmp_path_factory.mktemp("hidden") / "run", _rows(), skills=SKILLS)
    manifest = json.loads((run / "manifest.json").read_text())
    for variant in manifest["catalogs"].values():
        variant.update(status={"terraform-plan": "inactive"}, inactive=1, active=3)
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


def test_summary_confusion_leaves_out_the_never_shown_skill(run_dir: Path) -> None:
    cells = json.loads((run_dir / "summary.json").read_text())["cells"]
    for cell in cells:
        assert "terraform-plan" not in cell["confusion"]
        assert cell["not_shown"] == {"terraform-plan": 3}  # t0..t2, whatever was chosen


def test_advice_names_only_shown_confusions_and_says_why_the_rest_were_left_out(
    run_dir: Path,
) -> None:
    lines = confused_pairs(read_run(run_dir))
    # embedding only: g0, g1 at both budgets
    assert lines[0].startswith("`git-rescue` requests went to `commit-message` 4 times")
    assert not any("`terraform-plan` requests went to" in line for line in lines)
    left = next(line for line in lines if line.startswith("Not counted as confusions"))
    assert "6 decisions" in left  # t0..t2 at two budgets, embedding cells only
    assert "`terraform-plan` 6× (inactive: a `paths` skill no workspace file matches)" in left


def test_heatmap_counts_the_selector_under_test_only(run_dir: Path) -> None:
    figure = confusion_heatmap(read_run(run_dir))
    # embedding, both budgets: c0 twice; g0, g1 twice; n0 at 4000; n0 at 2000 and n1 twice.
    # With the never baseline summed in, none → none alone would be 3 + 4 and more.
    assert figure.values == {
        "decisions": {
            "commit-message → commit-message": 2,
            "git-rescue → commit-message": 4,
            "none → commit-message": 1,
            "none → none": 3,
        }
    }
    assert "baselines never, oracle left out" in figure.caption


def test_overlap_run_ranks_only_shown_confusions(run_dir: Path, tmp_path: Path, capsys) -> None:
    skills = tmp_path / "skills"
    for name, description in SKILLS.items():
        (skills / name).mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nBody.\n"
        )
    code = main(
        ["overlap", str(skills), "--run", str(run_dir), "--no-embeddings", "--format", "json"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    pairs = data["pairs"] if isinstance(data, dict) else data
    confused = {(p["a"], p["b"]): p["confusions"] for p in pairs}
    assert confused["k8s-manifest", "terraform-plan"] == 0
    assert confused["commit-message", "git-rescue"] == 4  # embedding g0, g1 at two budgets
    assert (pairs[0]["a"], pairs[0]["b"]) == ("commit-message", "git-rescue")
    assert main(["overlap", str(skills), "--run", str(run_dir), "--no-embeddings"]) == 0
    # t0..t2 at two budgets under three selectors: 18 decisions, with the reason
    assert (
        capsys.readouterr()
        .out.strip()
        .endswith(
            "not counted as confusions: 18 decisions whose expected skill the listing did not "
            "show: `terraform-plan` 18× (inactive: a `paths` skill no workspace file matches)"
        )
    )


def test_tune_targets_skip_decisions_whose_skill_was_not_shown(run_dir: Path) -> None:
    decisions = run_decisions(run_dir)
    # wrong and shown, per skill named (expected or chosen), over all three selectors:
    # git-rescue: embedding 4 + never 4 = 8; commit-message: embedding 4 (g) + 1 (n0 at 4000)
    # + never 2 (c0) = 7. The t rows (not shown) blame neither terraform-plan nor k8s-manifest.
    assert worst_skills(decisions, set(SKILLS), focus=4) == [
        ("git-rescue", 8),
        ("commit-message", 7),
    ]


def _table(run_dir: Path) -> dict[str, dict[str, str]]:
    """The Cells table: row label → column header → value (interval cut off)."""
    run = read_run(run_dir)
    headers = ["n", *(OVERVIEW_HEADER[m] for m in _overview_metrics(run)), "chars"]
    return {
        row[0]: {h: v.split(" ")[0] for h, v in zip(headers, row[1:], strict=True)}
        for row in overview_rows(run)
    }


def test_budget_plot_values_equal_the_table_and_leave_baselines_out(run_dir: Path) -> None:
    figure = accuracy_vs_budget(read_run(run_dir))
    table = _table(run_dir)
    # accuracy: 2000: c0, n0, n1 = 3/8; 4000: c0, n1 = 2/8.
    # false_invocation_rate: 2000: 0 of 2 negatives; 4000: n0 of 2.
    hand = {
        "accuracy": [(2000, 3 / 8), (4000, 2 / 8)],
        "false_invocation_rate": [(2000, 0.0), (4000, 0.5)],
    }
    assert {m: dict(figure.values[m]) for m in hand} == {
        m: {"all": points} for m, points in hand.items()
    }  # one line: the oracle and never lines are not drawn
    for metric, header in (("accuracy", "accuracy"), ("false_invocation_rate", "false inv. rate")):
        for budget, value in figure.values[metric]["all"]:
            assert table[f"budget={budget} selector=embedding"][header] == f"{value:.3f}"
    coverage = coverage_vs_budget(read_run(run_dir))
    assert coverage.values == {"coverage": {"all": [(2000, 0.5), (4000, 0.5)]}}  # 3 of 6 shown
    assert table["budget=2000 selector=embedding"]["coverage"] == "0.500"


def test_inline_vs_fork_bars_and_label_describe_the_same_invocations(run_dir: Path) -> None:
    figure = inline_vs_fork(read_run(run_dir))
    # commit-message, embedding only: g0, g1 (300 / 500) at both budgets, n0 at 4000
    # (300 / 500), c0 (900 / 600) at both: inline (5·300 + 2·900) / 7, fork (5·500 + 2·600) / 7
    assert figure.values["inline"]["commit-message"] == pytest.approx(3300 / 7)
    assert figure.values["fork"]["commit-message"] == pytest.approx(3700 / 7)
    assert figure.values["fork_cheaper_share"]["commit-message"] == pytest.approx(2 / 7)
    assert figure.values["inline"]["k8s-manifest"] == 200  # the oracle's 10,000s left out
    assert "git-rescue" not in figure.values["inline"]  # only the oracle invoked it


def _png_title(png: bytes) -> str:
    """The PNG's ``Title`` tEXt chunk (the chunk layout of the PNG specification)."""
    at = 8
    while at < len(png):
        size = int.from_bytes(png[at : at + 4], "big")
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + size]
        if kind == b"tEXt" and data.startswith(b"Title\0"):
            return data[6:].decode("latin-1")
        at += 12 + size
    return ""


def test_each_standalone_png_states_its_metric_and_cells(run_dir: Path) -> None:
    run = read_run(run_dir)
    cells = "cells: 2 cells of selector embedding (baselines never, oracle left out)"
    for figure, metrics in (
        (accuracy_vs_budget(run), ("accuracy: right answers", "false_invocation_rate: negatives")),
        (coverage_vs_budget(run), ("coverage: positives whose expected skill was shown",)),
        (confusion_heatmap(run), ("confusion: decisions by expected skill",)),
        (inline_vs_fork(run), ("inline_tokens / fork_tokens: mean tokens",)),
    ):
        assert figure.png is not None
        title = _png_title(figure.png)
        assert all(m in title for m in metrics) and title.endswith(cells), title


def test_the_headline_ranks_on_the_objective_it_names(run_dir: Path, capsys) -> None:
    out = run_dir.parent / "by-false-invocations"
    argv = ["report", str(run_dir), "--format", "md", "-o", str(out), "-q"]
    assert main([*argv, "--objective", "false_invocation_rate"]) == 0
    md = (out / "report.md").read_text()
    # false_invocation_rate: 0 of 2 negatives at budget 2000, 1 of 2 at 4000: lower wins
    assert "**Best cell on false_invocation_rate** (the objective; negatives where" in md
    assert "**budget=2000 selector=embedding**, false_invocation_rate **0.000**" in md
    # accuracy (the default) prefers 2000 too (3/8 against 2/8), and says so by name
    assert main(argv) == 0
    assert (
        "**budget=2000 selector=embedding**, accuracy **0.375**" in (out / "report.md").read_text()
    )
    assert main([*argv, "--objective", "f1"]) == 1
    assert "not a per-decision metric" in capsys.readouterr().err
