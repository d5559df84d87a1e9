"""Helpers for the transcript tests: reading JSONL and compressing fixtures like Codex."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def compress(source: Path, target: Path) -> Path:
    """``source`` as a zstandard-compressed copy at ``target``, as Codex stores old rollouts."""
    import zstandard

    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(zstandard.ZstdCompressor().compress(source.read_bytes()))
    return target
