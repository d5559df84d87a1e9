"""Fixtures: small synthetic run directories written to the documented contract."""

from __future__ import annotations

from pathlib import Path

import pytest
from synthetic import paired_rows, sweep_rows, write_run

from skillbench.report import write_report


@pytest.fixture(scope="session")
def sweep_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Budgets × orderings × half-lives, cost fields present."""
    rows = sweep_rows(budgets=(500, 1000, 2000, 4000), half_lives=("1d", "7d"), n_requests=40)
    return write_run(tmp_path_factory.mktemp("sweep") / "run", rows)


@pytest.fixture(scope="session")
def sweep_report(sweep_run: Path, tmp_path_factory: pytest.TempPathFactory):
    """The sweep's report in every format, rendered once (plots are the slow part)."""
    out = tmp_path_factory.mktemp("report")
    return out, write_report(sweep_run, output=out)


def flipped(n: int, worse: int, better: int) -> tuple[list[bool], list[bool]]:
    """A and B correctness lists: ``worse`` requests A-right/B-wrong, ``better`` the reverse,
    the rest correct on both."""
    a = [True] * worse + [False] * better + [True] * (n - worse - better)
    b = [False] * worse + [True] * better + [True] * (n - worse - better)
    return a, b


@pytest.fixture
def pair_dirs(tmp_path: Path):
    """Factory: two run dirs differing by known flips."""

    def make(n: int = 30, worse: int = 8, better: int = 1, repeats: int = 1) -> tuple[Path, Path]:
        a, b = flipped(n, worse, better)
        return (
            write_run(tmp_path / "a", paired_rows(a, repeats=repeats)),
            write_run(tmp_path / "b", paired_rows(b, repeats=repeats)),
        )

    return make
