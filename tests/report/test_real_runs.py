"""Reports, comparisons and the gate on real runs: the replay engine over real data.

Small grids (lexical with a calibrated threshold, and the oracle) over the devtools dataset
and the MetaTool dev split; the shapes synthetic runs miss (calibration splits, positions
far down a 199-tool listing, no negative requests, cost objects) come from here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.cli import main
from skillbench.replay import load_config, run_experiment
from skillbench.report import compare_runs, inert_keys, parse_selection, write_report
from skillbench.results import read_run

pytestmark = pytest.mark.slow  # the engine imports litellm and counts tokens: ~30 s
PNG = b"\x89PNG\r\n\x1a\n"
GRID = """
budgets: [1000, 8000]
orderings: [usage, alpha]
half_lives: [1d, inf]
selectors:
  - {type: lexical, threshold: auto}
  - {type: oracle}
seed: 0
"""


def _run(tmp: Path, name: str, head: str, limit: int) -> Path:
    config = tmp / f"{name}.yaml"
    config.write_text(f"name: {name}\n{head}{GRID}")
    return run_experiment(load_config(config), output=tmp / name, limit=limit).run_dir


@pytest.fixture(scope="module")
def devtools_run(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = repo_root / "datasets" / "devtools"
    sources = "".join(
        f"    - {{path: {data / 'skills' / kind}, source: {kind}}}\n"
        for kind in ("bundled", "user", "project", "plugin")
    )
    head = (
        f"catalogs:\n  devtools:\n{sources}cwd: {data / 'workspace'}\n"
        f"requests: {data / 'requests.jsonl'}\n"
    )
    return _run(tmp_path_factory.mktemp("real"), "devtools", head, limit=80)


@pytest.fixture(scope="module")
def metatool_run(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = shared_data / "metatool-dev"
    head = (
        f"catalogs:\n  metatool:\n    - {{path: {data / 'tools.jsonl'}}}\n"
        f"requests: {data / 'requests.jsonl'}\n"
    )
    return _run(tmp_path_factory.mktemp("real"), "metatool", head, limit=120)


@pytest.mark.parametrize("which", ["devtools_run", "metatool_run"])
def test_report_on_a_real_run(which: str, request, tmp_path: Path) -> None:
    run_dir = request.getfixturevalue(which)
    written = write_report(run_dir, output=tmp_path)
    assert {"report.md", "report.html", "summary.csv", "decisions.csv"} <= {p.name for p in written}
    for png in (p for p in written if p.suffix == ".png"):
        assert png.read_bytes().startswith(PNG)
    md = (tmp_path / "report.md").read_text()
    run = read_run(run_dir)
    # the real grids: half-life never changes what codebot shows at these budgets
    assert inert_keys(run.summary.cells) == ["half_life"]
    assert "**half_life changed no rate**" in md
    assert "Skipped: the half-life changed no decision" in md
    # usage and alpha order skills by what they are, so position bias is not measurable here
    assert "(plots/by_position.png)" not in md and "Omitted: no cell uses an ordering" in md
    assert "(plots/inline_vs_fork.png)" in md
    assert "Token cost per cell" in md


def test_no_negatives_drop_the_false_invocation_column(metatool_run: Path, tmp_path: Path) -> None:
    write_report(metatool_run, formats=["md"], output=tmp_path)
    md = (tmp_path / "report.md").read_text()
    cells = md[md.index("## Cells") : md.index("## Plots")]
    assert "false inv. rate" not in cells and "– –" not in cells
    assert "no false invocation rate" in cells


def test_compare_orderings_of_a_real_run(devtools_run: Path) -> None:
    cmp = compare_runs(
        parse_selection(f"{devtools_run}::ordering=usage"),
        parse_selection(f"{devtools_run}::ordering=alpha"),
        resamples=500,
    )
    assert len(cmp.results) == 8  # budgets × half-lives × selectors
    lexical = [r for r in cmp.results if r.cell_a.selector == "lexical"]
    oracle = [r for r in cmp.results if r.cell_a.selector == "oracle"]
    # lexical is compared on its test split only; the oracle on every request
    assert all(r.held_out > 0 and r.n_requests + r.held_out == 80 for r in lexical)
    assert all(r.held_out == 0 and r.n_requests == 80 for r in oracle)


def test_calibrated_cell_against_an_uncalibrated_one(devtools_run: Path, capsys) -> None:
    a = f"{devtools_run}::budget=8000,ordering=usage,half_life=1d,selector=lexical"
    b = f"{devtools_run}::budget=8000,ordering=usage,half_life=1d,selector=oracle"
    assert main(["compare", a, b, "--format", "json", "--resamples", "200"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    assert pair["label"] == "selector lexical → oracle"
    assert pair["held_out"] > 0 and pair["n_requests"] + pair["held_out"] == 80


def test_bless_check_round_trip(devtools_run: Path, tmp_path: Path, capsys) -> None:
    baseline = tmp_path / "baseline.json"
    assert main(["bless", str(devtools_run), str(baseline), "--quiet"]) == 0
    junit = tmp_path / "junit.xml"
    assert (
        main(["check", str(devtools_run), "--baseline", str(baseline), "--junit", str(junit)]) == 0
    )
    assert "32 passed, 0 failed" in capsys.readouterr().out
    assert junit.read_text().count("<testcase") == 32
