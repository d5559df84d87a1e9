"""Run config validation: unknown keys with suggestions and YAML lines, path resolution."""

from __future__ import annotations

import hashlib
import json
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
    """The config under ``configs/``, beside an empty catalog folder and requests file."""
    (tmp_path / "skills").mkdir(exist_ok=True)
    (tmp_path / "data").mkdir(exist_ok=True)
    requests = tmp_path / "data" / "requests.jsonl"
    if not requests.exists():
        requests.write_text("", encoding="utf-8")
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
    b = load_config(_write(tmp_path, BASE + "output_dir: elsewhere\nkeep_raw_answers: true\n"))
    c = load_config(_write(tmp_path, BASE + "seed: 3\n"))
    assert a.config_hash() == b.config_hash() != c.config_hash()
    assert b.keep_raw_answers and not a.keep_raw_answers


def test_hash_of_a_config_is_the_same_after_optional_keys_were_added(tmp_path: Path) -> None:
    # A config that leaves the catalog-size sweep, adaptive repeats, the retrieve stage and
    # the controls unset must keep the hash it had before those keys existed, so older runs
    # still resume.
    written = load_config(_write(tmp_path, BASE))
    data = written.model_dump(mode="json", exclude={"output_dir", "executor", "keep_raw_answers"})
    for key in (
        "catalog_sizes",
        "distractors",
        "anchors",
        "repeats_mode",
        "repeats_ci_width",
        "labels",
        "controls",
    ):
        del data[key]
    for selector in data["selectors"]:
        del selector["retrieve"]
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode())
    digest.update(hashlib.sha256(written.resolve(written.requests).read_bytes()).digest())
    assert written.config_hash() == digest.hexdigest()[:16]


def test_cost_section_validates_keys_and_values(tmp_path: Path) -> None:
    assert load_config(_write(tmp_path, BASE)).cost.model_dump(exclude_none=True) == {}
    text = BASE + "cost:\n  horizon: 0\n  summary_tokns: 10\n"
    with pytest.raises(InputErrors) as info:
        load_config(_write(tmp_path, text))
    found = {(p.location.field, p.location.line): p.reason for p in info.value.problems}
    assert "did you mean 'summary_tokens'" in found["cost.summary_tokns", 9]
    assert "greater than or equal to 1" in found["cost.horizon", 8]


def test_values_checked_after_parsing_name_file_and_line(tmp_path: Path) -> None:
    text = BASE + (
        "profiles: [codebot, claude-cod]\n"  # line 7
        "orderings: [usage, alfa]\n"  # line 8
        "budgets: [1000, -5]\n"  # line 9
        "cwd: no-such-workspace\n"  # line 10
    )
    text = text.replace("{path: skills, source: project}", "{path: gone, source: project}")
    path = _write(tmp_path, text)
    with pytest.raises(InputErrors) as info:
        load_config(path)
    found = {
        p.location.field: (p.location.file, p.location.line, p.reason) for p in info.value.problems
    }
    assert found["profiles[1]"][1:] == (7, found["profiles[1]"][2])
    assert "unknown profile 'claude-cod' (did you mean 'claude-code'?)" in found["profiles[1]"][2]
    assert found["orderings[1]"][1] == 8 and "unknown ordering 'alfa'" in found["orderings[1]"][2]
    assert found["budgets[1]"][1] == 9 and "-5" in found["budgets[1]"][2]
    assert found["cwd"][1] == 10 and "not found" in found["cwd"][2]
    assert found["catalogs.base[0]"][1] == 3 and "'gone' not found" in found["catalogs.base[0]"][2]
    assert {file for file, _, _ in found.values()} == {str(path)}


def test_an_empty_catalog_and_a_model_selector_without_model_name_the_config_line(
    tmp_path: Path,
) -> None:
    from skillbench._errors import InputError
    from skillbench.replay import dry_run

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "requests.jsonl").write_text(
        '{"id": "r1", "text": "hello", "expected": null}\n', encoding="utf-8"
    )
    path = _write(tmp_path, BASE)
    with pytest.raises(InputError, match=r"c\.yaml:3: field 'catalogs\.base': .*holds no skills"):
        dry_run(load_config(path))
    skill = tmp_path / "skills" / "pdf"
    skill.mkdir()
    (skill / "SKILL.md").write_text("---\nname: pdf\ndescription: Merge PDFs.\n---\n")
    path = _write(tmp_path, BASE.replace("{type: oracle}", "{type: litellm}"))
    with pytest.raises(InputError, match=r"c\.yaml:6: field 'selectors\[0\]': .*model"):
        dry_run(load_config(path))
