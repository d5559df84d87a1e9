"""Helpers for the authoring tests: skill folders written on the fly."""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"


def write_skill(root: Path, folder: str, frontmatter: str, body: str = "Body.\n") -> Path:
    """``root/folder/SKILL.md`` with ``frontmatter`` (YAML lines) and ``body``."""
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{frontmatter.strip()}\n---\n{body}", encoding="utf-8")
    return path


@pytest.fixture
def bad_corpus() -> Path:
    return CORPUS / "bad"
