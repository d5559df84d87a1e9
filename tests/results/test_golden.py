"""Run folders stay byte-identical: read back and written again, and run again.

``golden/`` holds two runs written before results travelled as typed records inside the
process (``grid``: two profiles, an unlimited budget, a calibrated threshold, a retrieve
stage, a random baseline, two repeats; ``sizes``: a catalog-size sweep), from the configs
beside them. Rewriting them through the records, or replaying their configs, must give the
same files, timings and package versions aside.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.replay import load_config, run_experiment
from skillbench.results import MANIFEST, RESULTS, SUMMARY, read_run, write_run_files

GOLDEN = Path(__file__).parent / "golden"
RUNS = ("grid", "sizes")
MACHINE = {"started_at", "ended_at", "versions"}
"""Manifest fields that say when and with which package versions a run was made."""


@pytest.mark.parametrize("name", RUNS)
def test_a_run_read_and_written_again_is_byte_identical(name: str, tmp_path: Path) -> None:
    run = read_run(GOLDEN / name)
    write_run_files(tmp_path, run)
    for file in (RESULTS, SUMMARY, MANIFEST):
        assert (tmp_path / file).read_bytes() == (GOLDEN / name / file).read_bytes(), file


@pytest.mark.parametrize("name", RUNS)
def test_running_the_config_again_writes_the_same_files(name: str, tmp_path: Path) -> None:
    run_experiment(load_config(GOLDEN / f"{name}.yaml"), output=tmp_path / "run")
    new, old = tmp_path / "run", GOLDEN / name
    assert (new / SUMMARY).read_bytes() == (old / SUMMARY).read_bytes()
    assert _rows(new) == _rows(old)
    assert _manifest(new) == _manifest(old)


def _rows(run_dir: Path) -> list[str]:
    """Each results line with its measured latency blanked (the only timed row field)."""
    lines = (run_dir / RESULTS).read_text(encoding="utf-8").splitlines()
    return [json.dumps({**json.loads(line), "latency_ms": None}) for line in lines]


def _manifest(run_dir: Path) -> dict[str, object]:
    data = json.loads((run_dir / MANIFEST).read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k not in MACHINE}
