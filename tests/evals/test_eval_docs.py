"""docs/eval.md documents every field of the ``eval --format json`` report."""

from __future__ import annotations

import re
from pathlib import Path

from skillbench.authoring import (
    ChangedSelection,
    EvalReport,
    PassRate,
    QueryResult,
    SkillScorecard,
)
from skillbench.results._docs import field_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "eval.md"
MODELS = [EvalReport, SkillScorecard, PassRate, QueryResult, ChangedSelection]


def test_field_tables_are_current() -> None:
    text = DOC.read_text(encoding="utf-8")
    for model in MODELS:
        block = re.search(rf"<!-- fields:{model.__name__} -->\n(.*?)<!-- /fields -->", text, re.S)
        assert block is not None, model.__name__
        assert block.group(1) == field_table(model), f"regenerate the {model.__name__} table"
