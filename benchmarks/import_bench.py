"""Throughput and memory of ``skillbench import`` on a large synthetic session log.

Writes a Claude Code log of about ``--mb`` megabytes (user turns, assistant turns with
``Skill`` calls, tool results carrying bulky file contents, one truncated line every 10,000
lines), and a Codex rollout of the same size compressed with zstandard, then imports each
and prints MB/s and the peak memory of the import: the process's resident high-water mark
(``resource.getrusage``) above what it held before, and the Python heap's peak
(``tracemalloc``, in a second pass, since tracing slows the parse).

    /work/venv/bin/python benchmarks/import_bench.py [--mb 100]
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skillbench.transcripts import import_logs

SKILLS = [f"skill-{i:02d}" for i in range(40)]
FILLER = "def handler(event):\n    return process(event)  # " + "x" * 3000


def _claude_lines(i: int) -> list[dict[str, Any]]:
    base = {"sessionId": f"s{i // 500}", "version": "2.1.0", "isSidechain": False}
    at = f"2026-11-{1 + i % 28:02d}T{i % 24:02d}:00:00.000Z"
    return [
        {
            **base,
            "type": "user",
            "timestamp": at,
            "message": {"role": "user", "content": f"please handle task {i} in module {i % 97}"},
        },
        {
            **base,
            "type": "assistant",
            "timestamp": at,
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t{i}",
                        "name": "Skill",
                        "input": {"skill": SKILLS[i % 40]},
                    }
                ],
            },
        },
        {
            **base,
            "type": "user",
            "timestamp": at,
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"t{i}", "content": FILLER}],
            },
        },
    ]


def _codex_lines(i: int) -> list[dict[str, Any]]:
    at = f"2026-11-{1 + i % 28:02d}T{i % 24:02d}:00:00.000Z"
    cmd = json.dumps({"command": f"cat /home/u/.codex/skills/{SKILLS[i % 40]}/SKILL.md"})
    return [
        {
            "timestamp": at,
            "type": "event_msg",
            "payload": {"type": "user_message", "message": f"please handle task {i}"},
        },
        {
            "timestamp": at,
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell_command",
                "arguments": cmd,
                "call_id": f"c{i}",
            },
        },
        {
            "timestamp": at,
            "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": f"c{i}", "output": FILLER},
        },
    ]


def write_log(path: Path, target_bytes: int, lines: Callable[[int], list[dict[str, Any]]]) -> int:
    """Stream a log of about ``target_bytes`` to ``path``; returns the turns written."""
    written = turn = count = 0
    with path.open("w", encoding="utf-8") as fh:
        if "rollout" in path.name:
            meta = {"id": "bench", "cli_version": "0.50.0"}
            fh.write(
                json.dumps(
                    {"timestamp": "2026-11-01T00:00:00Z", "type": "session_meta", "payload": meta}
                )
                + "\n"
            )
        while written < target_bytes:
            for record in lines(turn):
                text = json.dumps(record) + "\n"
                count += 1
                if count % 10_000 == 0:
                    text = text[: len(text) // 2] + "\n"  # a truncated line
                fh.write(text)
                written += len(text)
            turn += 1
    return turn


def compress(path: Path) -> Path:
    import zstandard

    target = path.with_name(path.name + ".zst")
    with path.open("rb") as src, target.open("wb") as dst:
        zstandard.ZstdCompressor().copy_stream(src, dst)
    path.unlink()
    return target


def measure(agent: str, log: Path, size: int, out: Path) -> dict[str, Any]:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    summary = import_logs(agent, [log], out)  # type: ignore[arg-type]
    seconds = time.perf_counter() - start
    rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    import_logs(agent, [log], out.with_name(out.name + "-traced"))  # type: ignore[arg-type]
    heap_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "agent": agent,
        "file": log.name,
        "input_mb": round(size / 1e6, 1),
        "seconds": round(seconds, 2),
        "mb_per_s": round(size / 1e6 / seconds, 1),
        "requests": summary.requests,
        "skipped_lines": summary.skipped,
        "rss_growth_mb": round((rss_peak - before) / 1024, 1),
        "python_heap_peak_mb": round(heap_peak / 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100.0, help="size of each log (MB)")
    args = parser.parse_args()
    target = int(args.mb * 1e6)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        claude = root / "session.jsonl"
        write_log(claude, target, _claude_lines)
        codex = root / "rollout-bench.jsonl"
        write_log(codex, target, _codex_lines)
        codex_size = codex.stat().st_size
        codex = compress(codex)
        rows = [
            measure("claude-code", claude, claude.stat().st_size, root / "out-claude"),
            measure("codex", codex, codex_size, root / "out-codex"),
        ]
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
