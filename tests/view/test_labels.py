"""Label overrides: the file format, ``run --labels`` and ``report --labels``.

The hostile catalog's requests: q2 expects ``notes``, q4 and q6 expect nothing. The overrides
turn q2 into a negative and make q4 expect ``notes``. At budget 4000 every skill is shown, so
by hand: an oracle run under the new labels invokes ``notes`` on q4 and abstains on q2; a
never run misses q4 and is right on q2. Scoring the *old* oracle run again under the new
labels: q2 (it invoked notes) is a false trigger, q4 (it abstained) a miss: 4 of 6 right.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench._errors import InputError
from skillbench.cli._main import main
from skillbench.dataset import load_labels
from skillbench.results import read_run
from tests.view.conftest import write_inputs

OVERRIDES = [{"id": "q2", "expected": [], "was": ["notes"]}, {"id": "q4", "expected": ["notes"]}]


def _labels(folder: Path, records: list[object]) -> Path:
    path = folder / "labels.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _outcomes(run_dir: Path, selector: str, budget: int) -> dict[str, str]:
    rows = read_run(run_dir).rows
    return {
        r.request_id: r.outcome
        for r in rows
        if r.selector == selector and r.budget == budget and r.ordering == "alpha"
    }


def _accuracy(run_dir: Path, selector: str, budget: int) -> float:
    cells = read_run(run_dir).summary.cells
    (cell,) = [
        c for c in cells if c.selector == selector and c.budget == budget and c.ordering == "alpha"
    ]
    accuracy = cell.metric("accuracy")
    assert accuracy is not None
    return accuracy


def test_bad_lines_are_named_by_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(
        '{"id": "q1", "expected": ["deploy"]}\n{"expected": []}\n{"id": "q3"}\n'
        '{"id": "q5", "expected": [3]}\n{"id": "q1", "expected": []}\nnot json\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        load_labels(path)
    message = str(caught.value)
    for where in (
        ":2: field 'id'",
        ":3: field 'expected'",
        ":4: field 'expected'",
        ":5: field 'id'",
    ):
        assert f"{path}{where}" in message
    assert f"{path}:6" in message


def test_run_with_labels_scores_against_the_overrides(tmp_path: Path) -> None:
    config = write_inputs(tmp_path, "  - {type: oracle}\n  - {type: never}\n")
    labels = _labels(tmp_path, OVERRIDES)
    out = tmp_path / "run"
    assert main(["run", str(config), "--labels", str(labels), "-o", str(out), "-q"]) == 0
    oracle, never = _outcomes(out, "oracle", 4000), _outcomes(out, "never", 4000)
    assert (oracle["q2"], oracle["q4"]) == ("correct_abstain", "correct_skill")
    assert (never["q2"], never["q4"]) == ("correct_abstain", "missed")
    assert _accuracy(out, "never", 4000) == pytest.approx(2 / 6)


def test_run_with_labels_names_an_unknown_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_inputs(tmp_path, "  - {type: never}\n")
    labels = _labels(tmp_path, [{"id": "nope", "expected": []}])
    assert main(["run", str(config), "--labels", str(labels), "-o", str(tmp_path / "r"), "-q"]) == 1
    assert f"{labels}: field 'id'" in capsys.readouterr().err


def test_report_with_labels_rescores_the_finished_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_inputs(tmp_path, "  - {type: oracle}\n  - {type: never}\n")
    run = tmp_path / "run"
    assert main(["run", str(config), "-o", str(run), "-q"]) == 0
    assert _accuracy(run, "oracle", 4000) == 1.0
    labels = _labels(tmp_path, OVERRIDES)
    assert main(["report", str(run), "--labels", str(labels), "--format", "md"]) == 0
    relabelled = run / "relabelled"
    assert (relabelled / "report.md").is_file()
    oracle = _outcomes(relabelled, "oracle", 4000)
    assert (oracle["q2"], oracle["q4"]) == ("false_trigger", "missed")
    assert _accuracy(relabelled, "oracle", 4000) == pytest.approx(4 / 6)
    assert _accuracy(run, "oracle", 4000) == 1.0  # the run itself is untouched
    assert "relabelled" in capsys.readouterr().out
    assert f"`skillbench view {relabelled}`" in (relabelled / "report.md").read_text()


def test_run_ends_with_the_view_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_inputs(tmp_path, "  - {type: never}\n")
    out = tmp_path / "run"
    assert main(["run", str(config), "-o", str(out)]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"skillbench view {out}")
