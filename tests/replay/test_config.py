"""Run config validation: unknown keys with suggestions and YAML lines, path resolution."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.dataset import InputErrors
from skillbench.replay import load_config

BASE = """\
name: t
catalogs:
  base: [{path: skills, source: project}]
requests: data/requests.jsonl
selectors:
  - {type: oracle}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "configs" / "c.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_and_paths_resolve_upward_from_the_config(tmp_path: Path) -> None:
    (tmp_path / "skills").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "requests.jsonl").write_text("", encoding="utf-8")
    config = load_config(_write(tmp_path, BASE))
    assert config.profiles == ["codebot"] and config.budgets == [None]
    assert config.half_lives == ["7d"] and config.usage.record == "chosen"
    assert config.resolve(config.requests) == (tmp_path / "data" / "requests.jsonl").resolve()
    assert config.resolved()["catalogs"]["base"][0]["path"] == str((tmp_path / "skills").resolve())
    assert config.selectors[0].label == "oracle"


def test_unknown_top_level_key_names_nearest_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path, BASE + "budgts: [1000]\n")
    with pytest.raises(InputErrors) as info:
        load_config(path)
    (problem,) = info.value.problems
    assert problem.location.line == 7 and problem.location.field == "budgts"
    assert "unknown key 'budgts' (did you mean 'budgets'?)" in problem.reason


def test_unknown_nested_key_and_bad_values_all_reported(tmp_path: Path) -> None:
    text = BASE + "usage:\n  floor: 0.2\n  recrod: label\nrepeats: 0\nhalf_lives: [1d, soon]\n"
    with pytest.raises(InputErrors) as info:
        load_config(_write(tmp_path, text))
    found = {(p.location.field, p.location.line): p.reason for p in info.value.problems}
    assert "did you mean 'record'" in found["usage.recrod", 9]
    assert ("repeats", 10) in found
    # Semantic checks run only once the schema is valid.
    text = BASE.replace("{type: oracle}", "{type: oracel}") + "half_lives: [1d, soon]\n"
    with pytest.raises(InputErrors) as info:
        load_config(_write(tmp_path, text))
    reasons = " ".join(p.reason for p in info.value.problems)
    assert "did you mean 'oracle'" in reasons and "bad duration 'soon'" in reasons
    assert {p.location.line for p in info.value.problems} == {6, 7}


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(Exception, match=r"c.yaml:4: invalid YAML"):
        load_config(_write(tmp_path, "name: t\ncatalogs:\n  base: [\n"))


def test_hash_ignores_output_dir_but_not_settings(tmp_path: Path) -> None:
    a = load_config(_write(tmp_path, BASE))
    b = load_config(_write(tmp_path, BASE + "output_dir: elsewhere\n"))
    c = load_config(_write(tmp_path, BASE + "seed: 3\n"))
    assert a.config_hash() == b.config_hash() != c.config_hash()


def test_cost_section_validates_keys_and_values(tmp_path: Path) -> None:
    assert load_config(_write(tmp_path, BASE)).cost.model_dump(exclude_none=True) == {}
    text = BASE + "cost:\n  horizon: 0\n  summary_tokns: 10\n"
    with pytest.raises(InputErrors) as info:
        load_config(_write(tmp_path, text))
    found = {(p.location.field, p.location.line): p.reason for p in info.value.problems}
    assert "did you mean 'summary_tokens'" in found["cost.summary_tokns", 9]
    assert "greater than or equal to 1" in found["cost.horizon", 8]
