"""Run directories as typed records: result rows, summary cells, the manifest, the run.

``read_run(dir)`` is the one reader of a run directory; the replay engine writes exactly
these models, one process at a time (``hold_run_folder``). ``Run.to_pandas()`` gives the
rows as a DataFrame for analysis in a notebook.
"""

from skillbench.results._config_copy import MODEL_TYPES
from skillbench.results._files import (
    CONFIG_COPY,
    MANIFEST,
    RESULTS,
    RUN_FILES,
    SUMMARY,
    dumps,
)
from skillbench.results._lock import (
    LOCK_FILE,
    FolderBusy,
    Holder,
    command_line,
    hold_run_folder,
    refuse_if_being_written,
)
from skillbench.results._manifest import (
    CLEAN,
    CatalogFacts,
    Manifest,
    RunCalibration,
    RunShape,
    RunState,
    RunStatus,
    SizeSweep,
    Timeline,
)
from skillbench.results._read import Run, read_manifest, read_rows, read_run
from skillbench.results._row import group_by_cell, spent_usd
from skillbench.results._summary import (
    OPTIONAL_SECTIONS,
    CellCalibration,
    CellFields,
    RecordedMetric,
    Summary,
    cell_model,
    plugin_metrics,
    summary_cell,
)
from skillbench.results._write import results_line, write_json, write_run_files
from skillbench.types import KNOWN_VERSIONS, SCHEMA_VERSION, Record, ResultRow, RowKey

__all__ = [
    "CLEAN",
    "CONFIG_COPY",
    "KNOWN_VERSIONS",
    "LOCK_FILE",
    "MANIFEST",
    "MODEL_TYPES",
    "OPTIONAL_SECTIONS",
    "RESULTS",
    "RUN_FILES",
    "SCHEMA_VERSION",
    "SUMMARY",
    "CatalogFacts",
    "CellCalibration",
    "CellFields",
    "FolderBusy",
    "Holder",
    "Manifest",
    "Record",
    "RecordedMetric",
    "ResultRow",
    "RowKey",
    "Run",
    "RunCalibration",
    "RunShape",
    "RunState",
    "RunStatus",
    "SizeSweep",
    "Summary",
    "Timeline",
    "cell_model",
    "command_line",
    "dumps",
    "group_by_cell",
    "hold_run_folder",
    "plugin_metrics",
    "read_manifest",
    "read_rows",
    "read_run",
    "refuse_if_being_written",
    "results_line",
    "spent_usd",
    "summary_cell",
    "write_json",
    "write_run_files",
]
