"""Executors: any order of finished rows gives the local run directory; the config key."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path

import pytest
from support.runs import devtools_config, run_files

from skillbench._errors import InputError, SkillbenchError
from skillbench.replay import EXECUTORS, ReplayJob, dry_run, load_config, run_experiment


class _CellByCellReversed:
    """The local engine one cell at a time, last cell first: rows arrive in another order
    than the local run's and every selector call holds one cell's queries only."""

    def replay(self, job: ReplayJob) -> None:
        local = EXECUTORS.get("local")()
        for run in reversed(job.runs):
            local.replay(dataclasses.replace(job, runs=[run]))


def test_rows_in_any_order_and_batching_give_the_local_run_directory(tmp_path: Path) -> None:
    config = load_config(devtools_config(tmp_path))
    run_experiment(config, output=tmp_path / "local", limit=40)
    with EXECUTORS.temporarily("test-reversed", _CellByCellReversed):
        result = run_experiment(
            config, output=tmp_path / "reversed", limit=40, executor="test-reversed"
        )
    assert result.status == "complete" and result.decisions == 12 * 40
    assert run_files(tmp_path / "reversed") == run_files(tmp_path / "local")


def test_unknown_executor_in_a_config_is_reported_at_its_line(tmp_path: Path) -> None:
    path = devtools_config(tmp_path, extra="executor: rey\n")
    config = load_config(path)  # executors register with the engine: the run checks the name
    with pytest.raises(InputError) as caught:
        run_experiment(config, output=tmp_path / "out")
    message = str(caught.value)
    line = path.read_text().splitlines().index("executor: rey") + 1
    assert f"{path}:{line}" in message and "'ray'" in message
    assert not (tmp_path / "out").exists()


def test_a_dry_run_reports_an_unknown_executor_as_the_run_would(tmp_path: Path) -> None:
    path = devtools_config(tmp_path, extra="executor: rey\n")
    with pytest.raises(InputError, match=r"unknown executor 'rey'") as caught:
        dry_run(load_config(path), limit=3)
    line = path.read_text().splitlines().index("executor: rey") + 1
    assert f"{path}:{line}" in str(caught.value)
    with pytest.raises(SkillbenchError, match=r"--executor: unknown executor 'rey'"):
        dry_run(load_config(devtools_config(tmp_path)), limit=3, executor="rey")


def test_the_executor_is_not_part_of_what_a_run_is(tmp_path: Path) -> None:
    plain = load_config(devtools_config(tmp_path))
    (tmp_path / "ray").mkdir()
    on_ray = load_config(devtools_config(tmp_path / "ray", extra="executor: ray\n"))
    assert on_ray.executor == "ray" and plain.executor is None
    assert on_ray.config_hash() == plain.config_hash()  # a local run resumes a ray run


def test_unknown_executor_argument_fails_before_any_output(tmp_path: Path) -> None:
    config = load_config(devtools_config(tmp_path))
    with pytest.raises(SkillbenchError, match=r"unknown executor 'rey'.*local, ray"):
        run_experiment(config, output=tmp_path / "out", executor="rey")
    assert not (tmp_path / "out").exists()


def test_ray_without_ray_installed_says_how_to_get_it_and_leaves_the_folder_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config(devtools_config(tmp_path, selectors="[{type: oracle}]"))
    done = run_experiment(config, output=tmp_path / "out", limit=5)
    assert done.status == "complete"
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir() if p.is_file()}
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets when not installed
    for output in ("out", "fresh"):
        with pytest.raises(
            SkillbenchError, match=re.escape("pip install -e '.[ray]' in the skillbench checkout")
        ):
            run_experiment(config, output=tmp_path / output, limit=5, executor="ray")
    after = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir() if p.is_file()}
    assert after == before
    assert json.loads(after["manifest.json"])["status"] == "complete"
    assert len(after["results.jsonl"].splitlines()) == 4 * 5
    assert not (tmp_path / "fresh").exists()


def test_a_spend_cap_under_ray_is_refused_before_the_folder_is_touched(tmp_path: Path) -> None:
    selectors = "[{type: litellm, model: openai/x, max_cost_usd: 1}]"
    config = load_config(devtools_config(tmp_path, selectors=selectors))
    with pytest.raises(SkillbenchError, match="max_cost_usd"):
        run_experiment(config, output=tmp_path / "out", executor="ray")
    assert not (tmp_path / "out").exists()


FAILING_RAY = '''\
"""A Ray whose start fails as it does when its raylet times out on a loaded machine."""


def is_initialized():
    return False


def init(**kwargs):
    raise Exception(
        "The current node timed out during startup. This could happen because some of the "
        "raylet failed to startup or the GCS has become overloaded.\\nmore lines"
    )


def shutdown():
    raise AssertionError("nothing was started")
'''


@pytest.mark.parametrize("how", ["flag", "config", "env"])
def test_a_ray_that_cannot_start_leaves_a_finished_run_byte_identical(
    tmp_path: Path, how: str
) -> None:
    """The start fails after the checks pass (Ray importable): still before the output."""
    import os
    import subprocess

    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "ray.py").write_text(FAILING_RAY)
    path = devtools_config(tmp_path, selectors="[{type: oracle}]")
    config = load_config(path)
    assert run_experiment(config, output=tmp_path / "out", limit=8).status == "complete"
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(fake), os.getcwd()])}
    command = [sys.executable, "-m", "skillbench", "run", str(path), "-o", str(tmp_path / "out")]
    command += ["--limit", "8", "-q"]
    if how == "flag":
        command += ["--executor", "ray"]
    elif how == "config":
        path.write_text(path.read_text() + "executor: ray\n")
    else:
        env["SKILLBENCH_EXECUTOR"] = "ray"
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "ray: cannot start or reach a local instance: The current node timed out" in lines[0]
    after = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    assert after == before
    assert len(after["results.jsonl"].splitlines()) == 4 * 8
