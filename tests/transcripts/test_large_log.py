"""A large log imports with flat memory (the figures themselves: benchmarks/import_bench.py)."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from skillbench.transcripts import import_logs


@pytest.mark.slow
def test_python_heap_stays_flat_on_a_50_mb_log(tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    bulky = "y" * 20_000  # a tool result the size of a source file
    turns = 0
    with log.open("w", encoding="utf-8") as fh:
        while fh.tell() < 50_000_000:
            at = f"2026-01-01T00:00:{turns % 60:02d}Z"
            user = {"role": "user", "content": f"turn {turns}"}
            result = {"role": "user", "content": [{"type": "tool_result", "content": bulky}]}
            fh.write(
                json.dumps({"type": "user", "sessionId": "s", "timestamp": at, "message": user})
            )
            fh.write("\n")
            fh.write(json.dumps({"type": "user", "sessionId": "s", "message": result}) + "\n")
            turns += 1
    tracemalloc.start()
    summary = import_logs("claude-code", [log], tmp_path / "out")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert summary.requests == turns
    assert peak < 5_000_000  # one line at a time: far below the 50 MB read
