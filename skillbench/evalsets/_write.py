"""Writing a trigger set in the list shape skill-creator reads."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from skillbench.evalsets._load import EVALS_DIR

SCAFFOLD_FILE = "trigger-evals.json"


class DraftQuery(NamedTuple):
    """A query to write: its text, label and where it came from (for the person editing)."""

    query: str
    should_trigger: bool
    origin: str


def write_trigger_set(skill_dir: Path, queries: Sequence[DraftQuery], *, force: bool) -> Path:
    """Write ``queries`` to ``skill_dir/evals/trigger-evals.json``; refuse to replace an
    existing file unless ``force``.

    Raises:
        FileExistsError: the file exists and ``force`` is false.
    """
    path = skill_dir / EVALS_DIR / SCAFFOLD_FILE
    if path.exists() and not force:
        raise FileExistsError(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    records = [q._asdict() for q in queries]
    path.write_text(json.dumps(records, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
