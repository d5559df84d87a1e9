"""File names of a run directory and the JSON conventions every writer and reader shares."""

from __future__ import annotations

import json
from typing import Any

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
MANIFEST = "manifest.json"
CONFIG_COPY = "config.yaml"
RUN_FILES = (RESULTS, SUMMARY, MANIFEST, CONFIG_COPY)
"""The files that make one run; they must always belong to the same run."""


def dumps(obj: Any) -> str:
    """Canonical one-line JSON (sorted keys): identical inputs give identical bytes."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False, default=str)
