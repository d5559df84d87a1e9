from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.selectors import SelectorEnv


@pytest.fixture
def env(tmp_path: Path) -> SelectorEnv:
    return SelectorEnv(cache_dir=tmp_path / "cache", seed=7)
