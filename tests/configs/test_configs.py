"""The example configs in configs/: each loads, validates and builds its grid; quickstart runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.cli import main
from skillbench.replay import build_grid, load_config, resolve_experiment

REPO = Path(__file__).resolve().parents[2]
CONFIGS = sorted((REPO / "configs").glob("*.yaml"))


def test_configs_exist() -> None:
    names = {p.stem for p in CONFIGS}
    expected = {"quickstart", "budget-sweep", "half-life", "ordering", "rewrite-ab", "profiles"}
    assert expected | {"ci"} <= names


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_config_builds_its_grid(path: Path) -> None:
    """Paths resolve from configs/, catalogs load and every expected skill name exists."""
    if "../shared/data/" in path.read_text() and not (REPO.parent / "shared" / "data").is_dir():
        pytest.skip("the config reads ../shared/data, which is not beside this clone")
    config = load_config(path)
    assert config.name == path.stem
    grid = build_grid(resolve_experiment(config, limit=5).grid)
    assert grid.cells and len(grid.requests) == 5
    assert path.read_text().startswith("#"), "a config opens with a comment saying what it answers"


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh embedding cache and no progress bar, so a run is hermetic."""
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("SKILLBENCH_QUIET", "1")
    return tmp_path


def _cells(run_dir: Path) -> dict[tuple[int | None, str, str], dict]:
    summary = json.loads((run_dir / "summary.json").read_text())
    return {(c["budget"], c["ordering"], c["selector"]): c for c in summary["cells"]}


def _check_quickstart(run_dir: Path, n: int) -> dict[tuple[int | None, str, str], dict]:
    cells = _cells(run_dir)
    assert len(cells) == 3 * 2 * 3
    assert all(c["n"] == n for c in cells.values())
    for budget in (2000, 4000, 8000):
        for ordering in ("usage", "alpha"):
            oracle = cells[budget, ordering, "oracle"]
            never = cells[budget, ordering, "never"]
            assert oracle["false_invocation_rate"] == 0 and never["recall"] == 0
            assert oracle["accuracy"] >= never["accuracy"]
            assert oracle["accuracy"] >= cells[budget, ordering, "embedding"]["accuracy"]
    for name in ("report.md", "report.html", "results.jsonl", "manifest.json"):
        assert (run_dir / name).is_file()
    return cells


def test_quickstart_runs_on_a_slice(isolated: Path) -> None:
    run_dir = isolated / "run"
    config = str(REPO / "configs/quickstart.yaml")
    assert main(["run", config, "-o", str(run_dir), "--limit", "40"]) == 0
    _check_quickstart(run_dir, 40)


@pytest.mark.slow
def test_quickstart_full_run_shows_budget_and_usage_effects(isolated: Path) -> None:
    run_dir = isolated / "run"
    assert main(["run", str(REPO / "configs/quickstart.yaml"), "-o", str(run_dir)]) == 0
    cells = _check_quickstart(run_dir, 1532)
    for ordering in ("usage", "alpha"):
        coverage = [cells[b, ordering, "oracle"]["coverage"] for b in (2000, 4000, 8000)]
        assert coverage == sorted(coverage) and coverage[0] < coverage[-1]
    for budget in (2000, 4000, 8000):
        usage, alpha = (cells[budget, o, "oracle"]["coverage"] for o in ("usage", "alpha"))
        assert usage > alpha


def test_ci_config_passes_its_checked_in_baseline(isolated: Path) -> None:
    run_dir = isolated / "ci"
    assert main(["run", str(REPO / "configs/ci.yaml"), "-o", str(run_dir)]) == 0
    assert main(["check", str(run_dir), "--baseline", str(REPO / "reports/baselines/ci.json")]) == 0
