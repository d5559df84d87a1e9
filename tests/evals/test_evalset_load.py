"""Trigger eval sets: both shapes load with their lines; bad ones name file, line and field;
the validation split is skill-creator's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from skillbench._errors import InputError
from skillbench.dataset import InputErrors
from skillbench.evalsets import load_trigger_set, read_trigger_file, validation_split
from tests.evals.conftest import write_set


def test_list_shape_loads_with_each_query_line(tmp_path: Path) -> None:
    path = tmp_path / "s" / "evals" / "evals.json"
    path.parent.mkdir(parents=True)
    path.write_text(
        "[\n"
        '  {"query": "first", "should_trigger": true},\n'
        '  {"query": "second",\n'
        '   "should_trigger": false}\n'
        "]\n",
        encoding="utf-8",
    )
    queries, outputs = read_trigger_file(path)
    assert [(q.text, q.should_trigger, q.line, q.index) for q in queries] == [
        ("first", True, 2, 1),
        ("second", False, 3, 2),
    ]
    assert outputs == 0


def test_evals_object_shape_uses_prompt_and_skips_output_evals(tmp_path: Path) -> None:
    skill = tmp_path / "pdf"
    write_set(
        skill,
        {
            "skill_name": "pdf",
            "evals": [
                {"prompt": "read this pdf", "should_trigger": True},
                {"id": 1, "prompt": "merge them", "expected_output": "a merged file"},
                {"prompt": "what time is it", "should_trigger": False},
            ],
        },
    )
    trigger_set = load_trigger_set("pdf", skill)
    assert [q.text for q in trigger_set.queries] == ["read this pdf", "what time is it"]
    assert trigger_set.output_evals == 1
    requests = trigger_set.requests()
    assert [(r.id, r.expected) for r in requests] == [("pdf#1", ("pdf",)), ("pdf#2", ())]


@pytest.mark.parametrize(
    ("item", "field"),
    [
        ({"query": "x"}, "should_trigger"),
        ({"query": "x", "should_trigger": "yes"}, "should_trigger"),
        ({"should_trigger": True}, "query"),
        ({"query": "x", "prompt": "y", "should_trigger": True}, "query"),
        ({"query": "  ", "should_trigger": True}, "query"),
        (
            {"query": "x", "should_trigger": True, "none_should_trigger": True},
            "none_should_trigger",
        ),
    ],
)
def test_a_bad_item_names_file_line_and_field(tmp_path: Path, item: dict, field: str) -> None:
    skill = tmp_path / "s"
    # The good item takes lines 2-5 of the indented dump; the bad one starts on line 6.
    path = write_set(skill, [{"query": "fine", "should_trigger": True}, item])
    with pytest.raises(InputErrors) as exc:
        load_trigger_set("s", skill)
    (problem,) = exc.value.problems
    assert (problem.location.file, problem.location.line, problem.location.field) == (
        str(path),
        6,
        field,
    )


def test_invalid_json_and_wrong_top_level_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('[\n  {"query": "x", "should_trigger": true},\n  {"query": }\n]\n')
    with pytest.raises(InputError, match=r"a\.json:3: invalid JSON"):
        read_trigger_file(path)
    path.write_text('\n{"queries": []}\n')
    with pytest.raises(InputError, match=r"a\.json:2: expected a list of queries or an object"):
        read_trigger_file(path)


def test_a_repeated_query_points_at_both(tmp_path: Path) -> None:
    skill = tmp_path / "s"
    path = write_set(
        skill,
        [
            {"query": "Same thing", "should_trigger": True},
            {"query": "same   thing", "should_trigger": False},
        ],
    )
    with pytest.raises(InputErrors, match=rf"{path}:6: field 'query': the same query as {path}:2"):
        load_trigger_set("s", skill)


def test_validation_split_is_skill_creators(tmp_path: Path) -> None:
    items = [{"query": f"yes {i}", "should_trigger": True} for i in range(10)]
    items += [{"query": f"no {i}", "should_trigger": False} for i in range(7)]
    skill = tmp_path / "s"
    write_set(skill, items)
    split = validation_split(load_trigger_set("s", skill).queries)
    assert split is not None
    # skill-creator's split_eval_set: seed the module generator with 42, shuffle the
    # should-trigger items, then the others, hold out max(1, int(n * 0.4)) of each.
    random.seed(42)
    trigger = [e["query"] for e in items if e["should_trigger"]]
    no_trigger = [e["query"] for e in items if not e["should_trigger"]]
    random.shuffle(trigger)
    random.shuffle(no_trigger)
    expected = set(trigger[:4] + no_trigger[:2])
    assert {q.text for q in split.validation} == expected
    assert len(split.train) == 11


def test_no_split_when_a_label_has_fewer_than_two_queries(tmp_path: Path) -> None:
    skill = tmp_path / "s"
    write_set(skill, [{"query": f"q{i}", "should_trigger": i > 0} for i in range(5)])
    assert validation_split(load_trigger_set("s", skill).queries) is None


def test_a_set_naming_another_skill_is_refused(tmp_path: Path) -> None:
    skill = tmp_path / "pdf"
    path = write_set(
        skill, {"skill_name": "docx", "evals": [{"prompt": "x", "should_trigger": True}]}
    )
    with pytest.raises(InputErrors, match=rf"{path}:1: field 'skill_name': the set is for 'docx'"):
        load_trigger_set("pdf", skill)
