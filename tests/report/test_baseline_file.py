"""The baseline file is a typed record: read back exactly as written, a malformed one refused
with the file and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from synthetic import paired_rows, write_run

from skillbench.cli import main
from skillbench.report import baseline_from_run, load_baseline
from skillbench.results import read_run


def _bless(tmp_path: Path) -> tuple[Path, Path]:
    run = write_run(tmp_path / "run", paired_rows([True, True, False], repeats=2))
    baseline = tmp_path / "baseline.json"
    assert main(["bless", str(run), str(baseline), "-q", "--min", "accuracy=0.5"]) == 0
    return run, baseline


def test_a_blessed_file_reads_back_as_the_run_made_it(tmp_path: Path) -> None:
    run, path = _bless(tmp_path)
    doc = json.loads(path.read_text())
    # three requests, two repeats each: r002 wrong both times, so accuracy 4/6
    (cell,) = doc["cells"]
    assert cell["metrics"]["accuracy"]["value"] == pytest.approx(4 / 6)
    assert cell["requests"]["r002"] == {
        "positive": True,
        "outcomes": ["wrong_skill", "wrong_skill"],
        "visible": [True, True],
    }
    assert "catalog_size" not in cell  # no size axis, no size keys
    loaded = load_baseline(path)
    assert loaded.thresholds == {"accuracy": {"min": 0.5}}
    again = baseline_from_run(read_run(run), loaded.thresholds)
    assert again.model_copy(update={"created": loaded.created}) == loaded
    assert again.to_json() | {"created": doc["created"]} == doc


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda c: c["requests"]["r000"].update(outcomes=["right", "right"]), "outcomes.0"),
        (lambda c: c.pop("selector"), "cells.0.selector"),
        (lambda c: c.update(colour="blue"), "cells.0.colour"),
        (lambda c: c["metrics"]["accuracy"].update(value="high"), "metrics.accuracy.value"),
    ],
)
def test_a_malformed_baseline_names_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit, field: str
) -> None:
    run, path = _bless(tmp_path)
    doc = json.loads(path.read_text())
    edit(doc["cells"][0])
    path.write_text(json.dumps(doc))
    assert main(["check", str(run), "--baseline", str(path)]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and field in err and "Traceback" not in err
