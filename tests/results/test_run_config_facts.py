"""What a report needs from a run's config copy comes as typed facts of ``Run``, read in
one place: selector types by their names in the cells, and the requests file."""

from __future__ import annotations

from pathlib import Path

from support.runs import DEVTOOLS, devtools_config

from skillbench.replay import load_config, run_experiment
from skillbench.report._run import selector_type
from skillbench.results import read_run


def test_renamed_selectors_and_the_requests_file(tmp_path: Path) -> None:
    selectors = "[{type: oracle, name: best}, {type: lexical}]"
    config = load_config(devtools_config(tmp_path, selectors=selectors, budgets="[2000]"))
    run = read_run(run_experiment(config, output=tmp_path / "out", limit=3).run_dir)
    assert run.selector_types == {"best": "oracle", "lexical": "lexical"}
    assert selector_type(run, "best") == "oracle"
    assert selector_type(run, "never-configured") == "never-configured"
    assert run.requests_file is not None
    assert run.requests_file.resolve() == (DEVTOOLS / "requests.jsonl").resolve()
