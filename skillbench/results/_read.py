"""Reading a run directory: the one reader every command uses.

Torn last line: a run appends one line per decision and flushes it, so a killed process can
leave the last line of ``results.jsonl`` cut short. Such a line (the file's last, without its
newline, not valid JSON) is dropped and recorded in ``Run.torn_line``; ``--resume`` redoes
that decision. Any other unreadable line is an error naming the file and line.

Files must belong together: the summary and manifest name the same config hash, every file
has the same schema version and every row belongs to a summary cell.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from skillbench._errors import InputError, Location, SkillbenchError, validated
from skillbench.metrics import RENAMED, split_controls, wilson_json
from skillbench.results._config_copy import ConfigFacts
from skillbench.results._files import CONFIG_COPY, MANIFEST, RESULTS, SUMMARY
from skillbench.results._lock import refuse_if_being_written
from skillbench.results._manifest import CLEAN, Manifest, RunStatus
from skillbench.results._summary import Summary
from skillbench.types import KNOWN_VERSIONS, CellKey, JsonObject, ResultRow

if TYPE_CHECKING:
    import pandas as pd


class Run(BaseModel):
    """One run directory, loaded and checked."""

    model_config = ConfigDict(frozen=True)

    path: Path
    """The run directory."""
    summary: Summary
    """``summary.json``."""
    manifest: Manifest | None
    """``manifest.json`` (absent only in hand-made directories)."""
    rows: list[ResultRow]
    """Every scored results row in file order (empty when ``results.jsonl`` is absent);
    positive controls are in ``controls``, so no report, comparison or gate counts them."""
    controls: list[ResultRow] = []
    """The positive-control rows, in file order."""
    config: JsonObject
    """``config.yaml``: the resolved config (empty when absent)."""
    torn_line: int | None = None
    """Line number of a dropped torn last line of ``results.jsonl``, if there was one."""

    @property
    def status(self) -> RunStatus:
        """How the run ended (``complete`` when there is no manifest to say otherwise)."""
        return self.manifest.status if self.manifest is not None else "complete"

    @property
    def clean(self) -> bool:
        """Whether every decision of the run was made and answered."""
        return self.status in CLEAN

    @property
    def errors(self) -> int:
        """Decisions that got no answer."""
        return sum(r.outcome == "error" for r in self.rows)

    @property
    def selector_types(self) -> dict[str, str]:
        """Selector name in the cells → its registry type, from ``config.yaml`` (a name the
        config does not rename is its type; absent when the config copy is)."""
        out: dict[str, str] = {}
        for selector in ConfigFacts.of(self.config).selectors:
            out.setdefault(selector.label, selector.type)
        return out

    @property
    def requests_file(self) -> Path | None:
        """The requests file ``config.yaml`` names (None when it names none)."""
        requests = ConfigFacts.of(self.config).requests
        return Path(requests) if requests else None

    def to_pandas(self) -> pd.DataFrame:
        """One row per result (request text included), ``detail`` as a dict column.

        pandas is imported here only, so the rest of skillbench does not need it loaded.
        """
        import pandas as pd

        columns = ["schema_version", *(f for f in ResultRow.model_fields if f != "schema_version")]
        return pd.DataFrame([r.model_dump() for r in self.rows], columns=columns)


def read_run(path: str | Path, *, rows: bool = True) -> Run:
    """Load a run directory; ``summary.json`` is required, the other files are checked.

    Args:
        path: the run directory.
        rows: read ``results.jsonl`` too (summary-only readers skip it).

    Raises:
        SkillbenchError: not a run directory, one another process is writing (named), an
            unknown schema version, files from different runs, or an invalid file (with file
            and line).
    """
    root = Path(path)
    if not root.is_dir():
        raise SkillbenchError(f"{root}: not a directory (expected a skillbench run directory)")
    refuse_if_being_written(root)
    summary_path = root / SUMMARY
    if not summary_path.is_file():
        hint = ""
        if (root / MANIFEST).is_file():
            hint = " (the run never finished; continue it with --resume)"
        raise SkillbenchError(f"{summary_path}: not found{hint}")
    summary_data = _migrate_summary(summary_path, _read_json(summary_path))
    summary = validated(Summary, summary_data, str(summary_path))
    manifest = None
    if (root / MANIFEST).is_file():
        manifest_path = root / MANIFEST
        manifest = read_manifest(manifest_path)
        _same(manifest_path, "config hash", summary.config_hash, manifest.config_hash)
        _same(manifest_path, "schema version", summary.schema_version, manifest.schema_version)
    results: list[ResultRow] = []
    torn = None
    if rows and (root / RESULTS).is_file():
        results, torn = _read_rows(
            root / RESULTS, summary.schema_version, {c.key for c in summary.cells}
        )
    scored, controls = split_controls(results)
    return Run(
        path=root,
        summary=summary,
        manifest=manifest,
        rows=scored,
        controls=controls,
        config=_read_config(root / CONFIG_COPY),
        torn_line=torn,
    )


def read_manifest(path: str | Path) -> Manifest:
    """The ``manifest.json`` of a run directory on its own: a run still going, interrupted or
    killed has no summary yet, and ``--resume`` and ``-o`` need to know which run it was.

    Raises:
        SkillbenchError: missing, not JSON, an unknown schema version or an invalid field
            (with file and field).
    """
    path = Path(path)
    if not path.is_file():
        raise SkillbenchError(f"{path}: not found")
    data = _read_json(path)
    _version(path, data)
    manifest: Manifest = validated(Manifest, {"schema_version": "0.1", **data}, str(path))
    return manifest


def _read_json(path: Path) -> Any:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(Location(str(path), exc.lineno), f"invalid JSON: {exc.msg}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SkillbenchError(f"{path}: cannot read ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(Location(str(path), 1), "expected a JSON object")
    return data


def _version(path: Path, data: dict[str, Any], line: int | None = None) -> str:
    """The file's schema version (0.1 when absent); an unknown one is an error."""
    version = data.get("schema_version", "0.1")
    if version not in KNOWN_VERSIONS:
        raise InputError(
            Location(str(path), line, "schema_version"),
            f"schema version {version!r} is not one this skillbench reads "
            f"({', '.join(KNOWN_VERSIONS)}); use the skillbench release that wrote it",
        )
    return str(version)


def _migrate_summary(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """A summary in the current shape; 0.1 cells get the renamed keys and their error counts.

    0.1 rates counted errored decisions as wrong answers; they are kept as recorded.
    """
    if _version(path, data) != "0.1":
        return data
    cells = []
    for cell in data.get("cells") or []:
        if not isinstance(cell, dict):
            cells.append(cell)
            continue
        cell = {_renamed(k): v for k, v in cell.items()}
        errors = int((cell.get("outcomes") or {}).get("error", 0))
        n = int(cell.get("n") or 0)
        cell.setdefault("errors", errors)
        cell.setdefault("error_rate", errors / n if n else None)
        cell.setdefault("error_rate_ci", wilson_json(errors, n))
        cells.append(cell)
    return {**data, "schema_version": "0.1", "cells": cells}


def _renamed(key: str) -> str:
    """The current name of a 0.1 summary key (intervals follow their metric)."""
    base = key.removesuffix("_ci")
    return RENAMED.get(base, base) + key[len(base) :]


def _lines(path: Path) -> Iterator[tuple[int, str, bool]]:
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            yield lineno, line, line.endswith("\n")


def read_rows(path: str | Path) -> list[ResultRow]:
    """The rows of a ``results.jsonl`` on its own (e.g. of a run that never finished), under
    the torn-last-line policy above; every row must have the first row's schema version."""
    path = Path(path)
    if not path.is_file():
        return []
    return _read_rows(path, None, None)[0]


def _read_rows(
    path: Path, schema: str | None, cells: set[CellKey] | None
) -> tuple[list[ResultRow], int | None]:
    rows: list[ResultRow] = []
    torn: int | None = None
    try:
        for lineno, line, whole in _lines(path):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                if not whole:
                    torn = lineno
                    break
                raise InputError(Location(str(path), lineno), f"invalid JSON: {exc.msg}") from None
            if not isinstance(data, dict):
                raise InputError(Location(str(path), lineno), "expected a JSON object")
            version = _version(path, data, lineno)
            schema = schema or version
            _same(path, "schema version", schema, version, lineno)
            row = validated(ResultRow, {"schema_version": version, **data}, str(path), lineno)
            if cells is not None and (key := row.key) not in cells:
                raise InputError(
                    Location(str(path), lineno),
                    f"row of cell {key.path} has no cell in {SUMMARY} "
                    "(the files come from different runs)",
                )
            rows.append(row)
    except UnicodeDecodeError as exc:
        raise SkillbenchError(f"{path}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    return rows, torn


def _same(where: Path, what: str, a: Any, b: Any, line: int | None = None) -> None:
    if a != b:
        raise InputError(
            Location(str(where), line),
            f"files of different runs: {what} {a!r} expected but {b!r} here; "
            "rerun into an empty directory (or with --overwrite)",
        )


def _read_config(path: Path) -> JsonObject:
    """The run's resolved config; empty when absent."""
    if not path.is_file():
        return {}
    import yaml

    try:
        config = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise InputError(Location(str(path), line), f"invalid YAML: {exc}") from None
    return config if isinstance(config, dict) else {}
