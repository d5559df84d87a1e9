"""Fixtures: a 30-request suite replayed by the engine under chosen regressions."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import pytest
from gate_suite import N, Replay, replay, write_requests


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    """``suite(disabled={...}, repeats=1)``: a run of the 30-request suite with those skills
    hidden; runs are cached per argument set within the module."""
    root = tmp_path_factory.mktemp("suite")
    write_requests(root, N)
    runs: dict[tuple[tuple[int, ...], int], Path] = {}

    def make(disabled: Collection[int] = (), repeats: int = 1) -> Path:
        key = (tuple(sorted(disabled)), repeats)
        if key not in runs:
            name = f"run{len(runs)}"
            runs[key] = replay(root, name, skills=N, disabled=disabled, repeats=repeats)
        return runs[key]

    return make
