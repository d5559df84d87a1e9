"""Repeats: a cell sampled k times gets trigger rates and pass^k in its summary."""

from __future__ import annotations

import json
from pathlib import Path

from skillbench.replay import load_config, run_experiment

CONFIG = """\
name: rep
catalogs:
  metatool: [{{path: {data}/tools.jsonl, source: project}}]
requests: {data}/requests.jsonl
budgets: [4000]
orderings: [alpha]
selectors:
  - {{type: random, p_abstain: 0.5}}
  - {{type: oracle, name: sure}}
repeats: {repeats}
"""


def _run(tmp_path: Path, shared_data: Path, repeats: int) -> list[dict]:
    path = tmp_path / f"rep{repeats}.yaml"
    path.write_text(CONFIG.format(data=shared_data / "metatool-dev", repeats=repeats))
    run_experiment(load_config(path), output=tmp_path / f"out{repeats}", limit=40, quiet=True)
    return json.loads((tmp_path / f"out{repeats}" / "summary.json").read_text())["cells"]


def test_repeated_cells_report_trigger_rates_and_pass_k(tmp_path: Path, shared_data: Path) -> None:
    cells = {c["selector"]: c for c in _run(tmp_path, shared_data, repeats=3)}
    random_cell, oracle_cell = cells["random"]["repeats"], cells["sure"]["repeats"]
    assert random_cell["repeats"] == 3 and random_cell["requests"] == 40
    assert set(random_cell["pass_k"]) == {"1", "2", "3"}
    # pass^k can only fall as k grows; a random picker is rarely right three times running.
    assert random_cell["pass_k"]["1"] >= random_cell["pass_k"]["2"] >= random_cell["pass_k"]["3"]
    assert random_cell["pass_k"]["3"] < 0.5
    # The oracle is deterministic: every repeat agrees and pass^k equals its accuracy.
    assert oracle_cell["consistent"] == 1.0
    assert oracle_cell["pass_k"]["3"] == oracle_cell["pass_k"]["1"]
    assert oracle_cell["threshold"] == 0.5


def test_single_repeat_cells_have_no_repeats_object(tmp_path: Path, shared_data: Path) -> None:
    assert all("repeats" not in c for c in _run(tmp_path, shared_data, repeats=1))
