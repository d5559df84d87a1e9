"""Writing run files: the one place records become bytes (sorted keys, so identical records
give identical files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from skillbench.results._files import MANIFEST, RESULTS, SUMMARY, dumps
from skillbench.types import JsonValue, ResultRow

if TYPE_CHECKING:
    from skillbench.results._read import Run


def results_line(row: ResultRow) -> str:
    """``row`` as one line of ``results.jsonl``, newline included."""
    return dumps(row.to_json()) + "\n"


def write_json(path: Path, data: JsonValue) -> None:
    """Write a JSON document atomically (temp file + rename), indented, with sorted keys."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    tmp.replace(path)


def write_run_files(run_dir: Path, run: Run) -> None:
    """Write ``run``'s results, summary and manifest into ``run_dir`` (e.g. a copy of a run
    after relabelling): the same bytes the engine writes for the same records."""
    run_dir.mkdir(parents=True, exist_ok=True)
    with (run_dir / RESULTS).open("w", encoding="utf-8") as fh:
        fh.writelines(results_line(row) for row in (*run.rows, *run.controls))
    write_json(run_dir / SUMMARY, run.summary.to_json())
    if run.manifest is not None:
        write_json(run_dir / MANIFEST, run.manifest.to_json())
