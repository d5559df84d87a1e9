"""``read_run``: one reader for every run directory, its checks and its torn-line policy."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from support.runs import DEVTOOLS_INPUTS

from skillbench._errors import SkillbenchError
from skillbench.metrics import METRICS
from skillbench.replay import load_config, run_experiment
from skillbench.report import baseline_from_run, write_report
from skillbench.results import SCHEMA_VERSION, ResultRow, read_manifest, read_run
from skillbench.types import CELL_FIELDS

OLD_RUN = Path(__file__).parent / "data" / "run-0.1"
"""A run directory written by skillbench 0.1 (lexical and oracle selectors, 6 devtools
requests, budget 2000): files without ``schema_version`` and with the old metric names."""

CONFIG = f"""\
name: small
{DEVTOOLS_INPUTS}budgets: [2000]
orderings: [alpha]
selectors: [{{type: oracle}}, {{type: never}}]
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("run")
    config = root / "small.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    run_experiment(load_config(config), output=root / "run", limit=12)
    return root / "run"


def copy(run_dir: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(run_dir, tmp_path / "copy"))


def test_an_engine_run_loads_with_every_file_at_the_current_schema(run_dir: Path) -> None:
    run = read_run(run_dir)
    assert run.status == "complete" and run.clean and run.torn_line is None
    assert len(run.rows) == 12 * 2 and len(run.summary.cells) == 2
    assert run.summary.schema_version == SCHEMA_VERSION
    assert run.manifest is not None and run.manifest.schema_version == SCHEMA_VERSION
    assert {r.schema_version for r in run.rows} == {SCHEMA_VERSION}
    for name in ("summary.json", "manifest.json"):
        assert json.loads((run_dir / name).read_text())["schema_version"] == SCHEMA_VERSION


def test_to_pandas_has_one_row_per_result_with_the_request_text(
    run_dir: Path, repo_root: Path
) -> None:
    texts = {}
    for line in (repo_root / "datasets" / "devtools" / "requests.jsonl").read_text().splitlines():
        item = json.loads(line)
        texts[str(item["id"])] = item["text"]
    frame = read_run(run_dir).to_pandas()
    assert len(frame) == 24
    # The columns as before the row extended the cell key: the schema version first.
    fields = list(ResultRow.model_fields)
    assert list(frame.columns) == ["schema_version", *(f for f in fields if f != "schema_version")]
    assert list(frame.columns)[1:9] == list(CELL_FIELDS)
    for rid, text in zip(frame["request_id"], frame["text"], strict=True):
        assert text == texts[rid]


def test_summary_keys_are_the_metric_registry(run_dir: Path) -> None:
    """Every metric but the optional ones, which only cells with their stage carry (this
    run has no retrieve stage)."""
    cell = json.loads((run_dir / "summary.json").read_text())["cells"][0]
    required = [m for m in METRICS.values() if not m.optional]
    for m in required:
        assert m.name in cell and f"{m.name}_ci" in cell
    rates = {k for k in cell if k.endswith("_ci")}
    assert rates == {f"{m.name}_ci" for m in required}
    assert "mean_full_listing_tokens" not in cell


def test_a_torn_last_line_is_dropped_and_reported(run_dir: Path, tmp_path: Path) -> None:
    run = copy(run_dir, tmp_path)
    with (run / "results.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"catalog": "devtools", "prof')  # a write cut short by a kill
    loaded = read_run(run)
    assert loaded.torn_line == 25 and len(loaded.rows) == 24


def test_a_bad_line_elsewhere_is_an_error_naming_file_and_line(
    run_dir: Path, tmp_path: Path
) -> None:
    run = copy(run_dir, tmp_path)
    lines = (run / "results.jsonl").read_text().splitlines(keepends=True)
    lines[3] = "not json\n"
    (run / "results.jsonl").write_text("".join(lines))
    with pytest.raises(SkillbenchError, match=r"results\.jsonl:4: invalid JSON"):
        read_run(run)


def test_an_unknown_schema_version_is_named(run_dir: Path, tmp_path: Path) -> None:
    run = copy(run_dir, tmp_path)
    summary = json.loads((run / "summary.json").read_text())
    (run / "summary.json").write_text(json.dumps({**summary, "schema_version": "7.0"}))
    with pytest.raises(SkillbenchError, match=r"summary\.json.*schema version '7\.0'"):
        read_run(run)


def test_files_of_two_runs_are_refused(run_dir: Path, tmp_path: Path) -> None:
    run = copy(run_dir, tmp_path)
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps({**manifest, "config_hash": "0" * 16}))
    with pytest.raises(SkillbenchError, match="files of different runs: config hash"):
        read_run(run)


def test_rows_of_a_cell_the_summary_lacks_are_refused(run_dir: Path, tmp_path: Path) -> None:
    run = copy(run_dir, tmp_path)
    lines = (run / "results.jsonl").read_text().splitlines()
    row = {**json.loads(lines[0]), "selector": "someone-else"}
    (run / "results.jsonl").write_text("\n".join([*lines, json.dumps(row)]) + "\n")
    with pytest.raises(SkillbenchError, match=r"results\.jsonl:25: row of cell .*someone-else"):
        read_run(run)


def test_a_missing_summary_says_the_run_never_finished(run_dir: Path, tmp_path: Path) -> None:
    run = copy(run_dir, tmp_path)
    (run / "summary.json").unlink()
    with pytest.raises(SkillbenchError, match=r"never finished.*--resume"):
        read_run(run)


def test_a_run_written_by_version_0_1_still_loads() -> None:
    run = read_run(OLD_RUN)
    assert run.summary.schema_version == "0.1" and run.status == "complete"
    assert len(run.rows) == 6 * 2 and all(r.text is None for r in run.rows)
    old = json.loads((OLD_RUN / "summary.json").read_text())["cells"]
    for before, cell in zip(old, run.summary.cells, strict=True):
        assert cell.metric("accuracy") == before["accuracy"]
        assert cell.metric("unwanted_invocation_rate") == before["false_invocations_rate"]
        assert cell.unwanted_invocations == before["false_invocations"]
        assert (cell.errors, cell.metric("error_rate")) == (0, 0.0)


def test_report_columns_and_baseline_metrics_are_the_metric_registry(
    run_dir: Path, tmp_path: Path
) -> None:
    write_report(run_dir, formats=("csv",), output=tmp_path)
    header = (tmp_path / "summary.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    for m in METRICS.values():
        assert {m.name, f"{m.name}_low", f"{m.name}_high"} <= set(header)
    baseline = baseline_from_run(read_run(run_dir)).to_json()
    always = {m.name for m in METRICS.values() if not m.optional}
    assert all(set(cell["metrics"]) == always for cell in baseline["cells"])


def test_the_manifest_reads_on_its_own_and_a_bad_one_names_file_and_field(
    run_dir: Path, tmp_path: Path
) -> None:
    assert read_manifest(run_dir / "manifest.json") == read_run(run_dir).manifest
    bad = copy(run_dir, tmp_path) / "manifest.json"
    data = json.loads(bad.read_text())
    bad.write_text(json.dumps({**data, "decisions": "many"}))
    with pytest.raises(SkillbenchError, match=rf"{re.escape(str(bad))}.*decisions"):
        read_manifest(bad)
    config = tmp_path / "small.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    with pytest.raises(SkillbenchError, match=r"cannot resume safely.*decisions"):
        run_experiment(load_config(config), output=bad.parent, limit=12, resume=True)
