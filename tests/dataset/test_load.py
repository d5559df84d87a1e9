"""Loading labelled requests: formats, validation messages, catalog checks."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from skillbench.dataset import InputErrors, check_expected, load_requests


def test_loads_metatool_dev(shared_data: Path) -> None:
    requests = load_requests(shared_data / "metatool-dev" / "requests.jsonl")
    assert len(requests) == 5420
    assert requests[0].expected == ("PodcastTool",)
    negatives = [r for r in requests if not r.positive]
    assert len(negatives) == 264 and all(r.expected == () for r in negatives)
    assert requests[0].source.endswith("requests.jsonl:1")


def test_jsonl_lists_every_problem_with_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(
        '{"id": "a", "text": "fine", "expected": ["x", "y"], "at": "2025-01-01T10:00:00"}\n'
        "\n"
        '{"id": "b", "text": "", "expected": 3}\n'
        "not json\n"
        '{"id": "a", "text": "again", "turn": -1}\n',
        encoding="utf-8",
    )
    with pytest.raises(InputErrors) as info:
        load_requests(path)
    where = [(p.location.line, p.location.field) for p in info.value.problems]
    assert where == [(3, "text"), (3, "expected"), (4, None), (5, "turn")]
    message = str(info.value)
    assert f"{path}:3: field 'text'" in message and "invalid JSON" in message


def test_duplicate_id_names_first_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": 1, "text": "a"}\n{"id": "1", "text": "b"}\n', encoding="utf-8")
    with pytest.raises(InputErrors, match="duplicate id '1' \\(first at line 1\\)"):
        load_requests(path)


def test_csv_multi_values_times_and_extra(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text(
        "id,text,expected,at,tags,topic\n"
        'r1,"review this, please",review|audit,2025-03-01T12:00:00Z,normal|boundary,code\n'
        "r2,hello,,,negative,\n",
        encoding="utf-8",
    )
    r1, r2 = load_requests(path)
    assert r1.expected == ("review", "audit") and r1.tags == ("normal", "boundary")
    assert r1.at == datetime(2025, 3, 1, 12, tzinfo=UTC)
    assert r1.extra == {"topic": "code"} and r2.expected == () and r2.source.endswith(":3")


def test_yaml_errors_point_at_the_item_line(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(
        "requests:\n"
        "  - id: ok\n    text: hi\n    expected: null\n"
        "  - id: bad\n    text: hi\n    at: yesterday\n",
        encoding="utf-8",
    )
    with pytest.raises(InputErrors) as info:
        load_requests(path)
    (problem,) = info.value.problems
    assert (problem.location.line, problem.location.field) == (5, "at")


def test_unknown_format_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="unknown requests format"):
        load_requests(tmp_path / "r.txt")
    with pytest.raises(Exception, match="not found"):
        load_requests(tmp_path / "r.jsonl")


def test_check_expected_lists_all_unknown_names_with_suggestions(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(
        '{"id": "a", "text": "x", "expected": "revew"}\n'
        '{"id": "b", "text": "y", "expected": ["refactor", "deploy"]}\n',
        encoding="utf-8",
    )
    requests = load_requests(path)
    with pytest.raises(InputErrors) as info:
        check_expected(requests, ["review", "refactor"], label="base")
    problems = info.value.problems
    assert [p.location.line for p in problems] == [1, 2]
    assert "did you mean 'review'" in problems[0].reason and "'deploy'" in problems[1].reason
    check_expected(requests[1:2], ["refactor", "deploy"])


def test_csv_row_with_more_cells_than_the_header_is_an_error(tmp_path: Path) -> None:
    """An unquoted comma once shifted the row and its trailing cells were silently dropped."""
    path = tmp_path / "r.csv"
    path.write_text(
        "id,text,expected\nr1,hi,review\nr2,fix this, please,review\n", encoding="utf-8"
    )
    with pytest.raises(InputErrors, match=r"r\.csv:3: 1 more cell\(s\) than the header's 3"):
        load_requests(path)


def test_yaml_extra_fields_are_kept_as_json_data(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(
        "- id: a\n  text: hi\n  labelled: 2025-03-01\n  notes: {1: [2025-03-01 12:00:00]}\n"
        "- id: b\n  text: hi\n  blob: !!binary aGk=\n",
        encoding="utf-8",
    )
    with pytest.raises(InputErrors) as info:
        load_requests(path)
    (problem,) = info.value.problems
    assert (problem.location.line, problem.location.field) == (5, "blob")
    assert "no JSON form" in str(info.value)
    path.write_text(path.read_text(encoding="utf-8").split("- id: b")[0], encoding="utf-8")
    (request,) = load_requests(path)
    assert request.extra == {"labelled": "2025-03-01", "notes": {"1": ["2025-03-01T12:00:00"]}}
