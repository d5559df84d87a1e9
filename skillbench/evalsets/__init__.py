"""Skill authors' trigger eval sets: read (both shapes, with lines), split as skill-creator
splits them, turned into labelled requests, and scaffolded."""

from skillbench.evalsets._json import loads_json_lines
from skillbench.evalsets._load import (
    EVALS_DIR,
    TriggerQuery,
    TriggerSet,
    eval_files,
    load_trigger_set,
    read_trigger_file,
)
from skillbench.evalsets._split import HOLDOUT, SEED, ValidationSplit, validation_split
from skillbench.evalsets._write import SCAFFOLD_FILE, DraftQuery, write_trigger_set

__all__ = [
    "EVALS_DIR",
    "HOLDOUT",
    "SCAFFOLD_FILE",
    "SEED",
    "DraftQuery",
    "TriggerQuery",
    "TriggerSet",
    "ValidationSplit",
    "eval_files",
    "load_trigger_set",
    "loads_json_lines",
    "read_trigger_file",
    "validation_split",
    "write_trigger_set",
]
