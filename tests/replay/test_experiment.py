"""Resolving a run config once: what the engine's parts get from ``resolve_experiment``."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from support.runs import DEVTOOLS, devtools_config

from skillbench._errors import InputError
from skillbench.replay import load_config, resolve_experiment, run_experiment
from skillbench.selectors import SELECTORS, OracleSelector, Selector, SelectorEnv

RELATIVE = """\
name: relative
catalogs:
  devtools: [skills/project]
requests: requests.jsonl
seed: 7
calibration: {seed: 3}
selectors:
  - {name: bm25, type: lexical, retrieve: {method: bm25, k: 2}}
  - {type: oracle}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A config in ``project/configs`` whose inputs sit in ``project``, named relatively."""
    shutil.copytree(DEVTOOLS / "skills" / "project", tmp_path / "skills" / "project")
    shutil.copy(DEVTOOLS / "requests.jsonl", tmp_path / "requests.jsonl")
    (tmp_path / "configs").mkdir()
    path = tmp_path / "configs" / "relative.yaml"
    path.write_text(RELATIVE, encoding="utf-8")
    return path


def test_inputs_resolve_from_the_config_upward_and_seeds_settle(project: Path) -> None:
    experiment = resolve_experiment(load_config(project))
    root = project.parent.parent.resolve()
    assert experiment.grid.requests.path == root / "requests.jsonl"
    (variant,) = experiment.grid.catalogs
    assert [s.path for s in variant.sources] == [str(root / "skills" / "project")]
    assert experiment.document["requests"] == str(root / "requests.jsonl")
    # The timeline has no seed of its own: the run's; calibration has one: its own.
    assert experiment.grid.requests.timeline_seed == 7
    assert experiment.calibration.seed == 3
    assert experiment.grid.base_dir == project.parent.resolve()
    assert experiment.output == Path("reports/relative")


def test_selectors_and_their_stages_keep_their_config_lines(project: Path) -> None:
    bm25, oracle = resolve_experiment(load_config(project)).selectors
    lines = RELATIVE.splitlines()
    assert (bm25.label, bm25.type, oracle.label) == ("bm25", "lexical", "oracle")
    assert (
        bm25.where.line
        == lines.index("  - {name: bm25, type: lexical, retrieve: {method: bm25, k: 2}}") + 1
    )
    assert bm25.retrieve is not None and (bm25.retrieve.method, bm25.retrieve.k) == ("bm25", 2)
    assert oracle.retrieve is None and oracle.where.line == lines.index("  - {type: oracle}") + 1


def test_a_limit_enters_the_hash_as_the_same_limit_in_the_file_does(project: Path) -> None:
    in_file = project.with_name("limited.yaml")
    in_file.write_text(RELATIVE + "limit: 5\n", encoding="utf-8")
    limited = resolve_experiment(load_config(project), limit=5)
    assert limited.config_hash == resolve_experiment(load_config(in_file)).config_hash
    assert limited.config_hash != resolve_experiment(load_config(project)).config_hash
    assert limited.limit == 5 and limited.document["limit"] == 5


def test_the_executor_argument_overrides_the_config(project: Path) -> None:
    project.write_text(RELATIVE + "executor: ray\n", encoding="utf-8")
    config = load_config(project)
    chosen = resolve_experiment(config).executor
    assert chosen.name == "ray" and chosen.where is not None
    assert chosen.where.line == len(RELATIVE.splitlines()) + 1
    assert resolve_experiment(config, executor="local").executor == ("local", None)


def _any_params(params: Mapping[str, Any], env: SelectorEnv) -> Selector:
    """An oracle that takes whatever params it is given, as a third-party selector may."""
    return OracleSelector()


def test_a_bad_trigger_threshold_is_reported_at_its_selector(tmp_path: Path) -> None:
    selectors = "\n  - {type: lexical}\n  - {type: test-any, trigger_threshold: high}"
    path = devtools_config(tmp_path, "repeats: 2\n", selectors=selectors)
    message = "trigger_threshold must be a number, not 'high'"
    with SELECTORS.temporarily("test-any", _any_params):
        config = load_config(path)
        with pytest.raises(InputError, match=message) as caught:
            run_experiment(config, output=tmp_path / "out", limit=3)
    lines = path.read_text(encoding="utf-8").splitlines()
    line = lines.index("  - {type: test-any, trigger_threshold: high}") + 1
    assert caught.value.location.line == line
