"""Writing the run directory: results rows appended as they finish, JSON files, resume.

Rows are ``skillbench.results.ResultRow`` records from the moment a decision finishes; each
is serialised once, when its line is written, so the files hold exactly the shapes
``read_run`` accepts.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.results import (
    MANIFEST,
    RESULTS,
    RUN_FILES,
    SUMMARY,
    ResultRow,
    read_manifest,
    read_rows,
    results_line,
)


class StepKey(NamedTuple):
    """Where a decision sits in the replay: its cell's index in the grid and its request's
    index in replay order (the canonical order of results.jsonl)."""

    cell: int
    request: int


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ResultsWriter:
    """Appends one row per finished decision and flushes it, so a killed run loses only
    the decisions in flight; keeps each row's line by its key so the canonical rewrite at
    the end reorders lines instead of serialising every row again."""

    def __init__(self, path: Path, existing: Iterable[tuple[StepKey, ResultRow]] = ()) -> None:
        self.path = path
        self._lines: dict[StepKey, str] = {}
        self._fh: IO[str] = path.open("w", encoding="utf-8")
        for key, row in existing:
            self._fh.write(self._line(key, row))
        self._fh.flush()

    def _line(self, key: StepKey, row: ResultRow) -> str:
        line = self._lines[key] = results_line(row)
        return line

    def write(self, key: StepKey, row: ResultRow) -> None:
        self._fh.write(self._line(key, row))
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()

    def write_sorted(self) -> None:
        """Rewrite the results file with every row so far in key order (atomically)."""
        tmp = self.path.with_suffix(".jsonl.tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            fh.writelines(self._lines[k] for k in sorted(self._lines))
        tmp.replace(self.path)


def resumable_rows(run_dir: Path, config_hash: str) -> list[ResultRow]:
    """Rows a ``--resume`` may keep: answered decisions of a run of the very same config.

    Decisions that ended in ``error`` are left out, so the resumed run asks them again. The
    old summary is removed: it no longer matches, and the run writes a new one when it ends.
    """
    path = run_dir / MANIFEST
    if not path.is_file():
        if (run_dir / RESULTS).exists():
            raise SkillbenchError(f"{run_dir}: results without a manifest; cannot resume safely")
        return []
    try:
        found = read_manifest(path).config_hash
    except SkillbenchError as exc:
        raise SkillbenchError(f"unreadable manifest; cannot resume safely: {exc}") from None
    if found != config_hash:
        raise SkillbenchError(
            f"{run_dir}: holds a run of a different config (hash {found}, now {config_hash}); "
            "use another -o directory, or run without --resume (and with --overwrite)"
        )
    kept = [r for r in read_rows(run_dir / RESULTS) if r.outcome != "error"]
    (run_dir / SUMMARY).unlink(missing_ok=True)
    return kept


def claim_output(run_dir: Path, config_hash: str, *, resume: bool, overwrite: bool) -> None:
    """Make ``run_dir`` ready for this run, before any work starts.

    A folder holding another config's run is refused unless ``overwrite``; the old run's
    files are then removed, as are a re-run's own, so the folder never mixes two runs. A
    resume keeps the folder (``resumable_rows`` checks it holds the same config).
    """
    manifest = run_dir / MANIFEST
    if resume or not any((run_dir / f).exists() for f in RUN_FILES):
        return
    try:
        found: str | None = read_manifest(manifest).config_hash
    except SkillbenchError:
        found = None
    if found != config_hash and not overwrite:
        raise SkillbenchError(
            f"{run_dir}: holds another run (config hash {found}, now {config_hash}); "
            "pass --overwrite to replace it, or choose another -o directory"
        )
    for name in RUN_FILES:
        (run_dir / name).unlink(missing_ok=True)
