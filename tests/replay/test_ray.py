"""The ray executor on a local Ray instance: the same run directory as the local executor.

Skipped without Ray (``pip install 'skillbench[ray]'``); marked slow, since starting a Ray
instance and its workers takes 15-25 s here.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.runs import REPO, devtools_config, run_files

from skillbench.replay import load_config, run_experiment

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """Two worker CPUs on this machine, importing this checkout's skillbench."""
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.ERROR,
        log_to_driver=False,
        object_store_memory=150 * 1024**2,
        runtime_env={"env_vars": {"PYTHONPATH": str(REPO)}},
    )
    yield
    ray.shutdown()


@pytest.mark.slow
def test_ray_run_equals_local_run(tmp_path: Path, local_ray: None) -> None:
    config = load_config(devtools_config(tmp_path))
    local = run_experiment(config, output=tmp_path / "local", limit=50)
    on_ray = run_experiment(config, output=tmp_path / "ray", limit=50, executor="ray")
    assert (on_ray.status, on_ray.decisions, on_ray.errors) == ("complete", 12 * 50, 0)
    assert on_ray.cells == local.cells
    assert run_files(tmp_path / "ray") == run_files(tmp_path / "local")


@pytest.mark.slow
def test_ray_resumes_a_run_in_request_spans(tmp_path: Path, local_ray: None) -> None:
    # Two cells for four task slots: the alpha cell (listing fixed) is cut into two request
    # spans, the usage cell (listing follows its own choices) stays whole.
    config = load_config(devtools_config(tmp_path, budgets="[2000]", selectors="[{type: lexical}]"))
    run_experiment(config, output=tmp_path / "local", limit=600)
    cut = tmp_path / "cut"
    shutil.copytree(tmp_path / "local", cut)
    lines = (cut / "results.jsonl").read_text().splitlines(keepends=True)
    (cut / "results.jsonl").write_text("".join(lines[::3]))  # a third kept, spread out
    result = run_experiment(config, output=cut, limit=600, resume=True, executor="ray")
    assert (result.status, result.resumed, result.decisions) == ("complete", 400, 1200)
    resumed, full = run_files(cut), run_files(tmp_path / "local")
    assert resumed["manifest.json"].pop("resumed_rows") == 400
    full["manifest.json"].pop("resumed_rows")
    assert resumed == full
