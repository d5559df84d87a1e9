"""The toy plugin installed once and its grid run once, for every test of this folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from toy_plugin import build_broken, build_toy
from toy_project import BARE, LAST, Sites, cli, project


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Sites:
    root = tmp_path_factory.mktemp("plugins")
    return Sites(build_toy(root), build_broken(root))


@pytest.fixture(scope="session")
def toy_run(sites: Sites, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy grid, run once: 2 profiles × 2 budgets × 3 selectors × 5 requests."""
    root = tmp_path_factory.mktemp("run")
    project(
        root,
        f'[toy-names, "{BARE}"]',
        ["{type: toy/first}", f'{{type: "{LAST}", name: last}}', "{type: oracle}"],
    )
    done = cli(["run", "config.yaml", "-o", "out", "--quiet"], root, sites.toy)
    assert done.code == 0, done.stderr
    return root / "out"
