"""The run directory: results rows appended as they finish, JSON files, resume."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from skillbench._errors import SkillbenchError
from skillbench.types import CELL_FIELDS

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
MANIFEST = "manifest.json"
CONFIG_COPY = "config.yaml"

RowKey = tuple[Any, ...]


def row_key(row: Mapping[str, Any]) -> RowKey:
    """What identifies a decision: the cell, the repeat and the request."""
    return (*(row[f] for f in CELL_FIELDS), row["repeat"], row["request_id"])


def dumps(obj: Any) -> str:
    """Canonical JSON (sorted keys): identical inputs give identical bytes."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, allow_nan=False, default=str)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ResultsWriter:
    """Appends one row per finished decision and flushes it, so a killed run loses only
    the decisions in flight."""

    def __init__(self, path: Path, existing: Iterable[Mapping[str, Any]] = ()) -> None:
        self.path = path
        self._fh: IO[str] = path.open("w", encoding="utf-8")
        for row in existing:
            self._fh.write(dumps(row) + "\n")
        self._fh.flush()

    def write(self, row: Mapping[str, Any]) -> None:
        self._fh.write(dumps(row) + "\n")
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a results file; a torn last line (a killed writer) is dropped."""
    if not path.is_file():
        return []
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict) and "request_id" in row:
                rows.append(row)
    return rows


def read_manifest(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return None


def resumable_rows(run_dir: Path, config_hash: str) -> list[dict[str, Any]]:
    """Rows a ``--resume`` may keep: only from a run of the very same config."""
    manifest = read_manifest(run_dir)
    if manifest is None:
        if (run_dir / RESULTS).exists():
            raise SkillbenchError(f"{run_dir}: results without a manifest; cannot resume safely")
        return []
    if manifest.get("config_hash") != config_hash:
        raise SkillbenchError(
            f"{run_dir}: holds a run of a different config (hash {manifest.get('config_hash')}, "
            f"now {config_hash}); use another -o directory or run without --resume"
        )
    return read_rows(run_dir / RESULTS)


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` atomically (temp file + rename) with sorted keys."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    tmp.replace(path)


def write_rows(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """Rewrite the results file in canonical order (atomically)."""
    tmp = path.with_suffix(".jsonl.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(dumps(row) + "\n")
    tmp.replace(path)
