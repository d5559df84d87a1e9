"""docs/architecture.md's record tables are generated from the field docstrings."""

from __future__ import annotations

from pathlib import Path

from skillbench.results import ResultRow
from skillbench.results._docs import MODELS, field_table, update_field_tables


def test_architecture_tables_are_current(repo_root: Path) -> None:
    text = (repo_root / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert update_field_tables(text) == text, (
        "regenerate: python -m skillbench.results._docs docs/architecture.md"
    )
    for name in MODELS:
        assert f"<!-- fields:{name} -->" in text


def test_every_field_is_documented() -> None:
    for model in MODELS.values():
        for name, info in model.model_fields.items():
            assert info.description, f"{model.__name__}.{name} has no docstring"
    assert "| `budget` | int \\| null |" in field_table(ResultRow)
