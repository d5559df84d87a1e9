"""Fixture logs written by hand from the public descriptions of both formats."""

from __future__ import annotations

from pathlib import Path

import pytest
from transcript_helpers import FIXTURES


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
