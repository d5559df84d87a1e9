"""``--resume`` continues a run only on the inputs it started with: a skill added or
rewritten, or another usage warm-start file, is refused before the folder is touched."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from support.runs import DEVTOOLS

from skillbench._errors import SkillbenchError
from skillbench.replay import load_config, run_experiment

CONFIG = f"""\
name: resume-inputs
catalogs:
  devtools:
    - {{path: {DEVTOOLS}/skills/bundled, source: bundled}}
    - {{path: user-skills, source: user}}
    - {{path: {DEVTOOLS}/skills/project, source: project}}
    - {{path: {DEVTOOLS}/skills/plugin, source: plugin}}
cwd: {DEVTOOLS}/workspace
requests: {DEVTOOLS}/requests.jsonl
budgets: [2000]
orderings: [usage]
usage: {{record: label, warm_start: usage.json}}
selectors:
  - {{type: oracle}}
limit: 12
"""
WARM = {"debug": {"count": 3, "last_used": "2025-01-01T00:00:00Z"}}


def _add_skill(root: Path) -> None:
    folder = root / "user-skills" / "brand-new"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: brand-new\ndescription: New.\n---\nBody.\n")


def _rewrite_description(root: Path) -> None:
    skill = root / "user-skills" / "debug" / "SKILL.md"
    lines = skill.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("description:"))
    lines[at] = "description: Something else entirely.\n"
    skill.write_text("".join(lines), encoding="utf-8")


LONG_BODY = "Collect the notes of every merged change.\n" * 2_000
"""Past ``INLINE_BODY_CHARS``: the catalog keeps where this body lies, not its text."""


def _write_long_skill(root: Path, body: str) -> None:
    folder = root / "user-skills" / "long-notes"
    folder.mkdir(exist_ok=True)
    text = f"---\nname: long-notes\ndescription: Release notes.\n---\n{body}"
    (folder / "SKILL.md").write_text(text, encoding="utf-8")


def _rewrite_long_body(root: Path) -> None:
    middle = len(LONG_BODY) // 2
    _write_long_skill(root, LONG_BODY[:middle] + "X" + LONG_BODY[middle + 1 :])


def _other_warm_start(root: Path) -> None:
    (root / "usage.json").write_text(json.dumps({"debug": {**WARM["debug"], "count": 4}}))


@pytest.fixture
def finished(tmp_path: Path) -> tuple[Path, Path]:
    """A complete run whose catalog and warm-start file live in ``tmp_path``."""
    shutil.copytree(DEVTOOLS / "skills" / "user", tmp_path / "user-skills")
    _write_long_skill(tmp_path, LONG_BODY)
    (tmp_path / "usage.json").write_text(json.dumps(WARM))
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    result = run_experiment(load_config(config), output=tmp_path / "run")
    assert result.status == "complete" and result.decisions == 12
    return config, tmp_path / "run"


def test_resume_on_unchanged_inputs_keeps_every_row(finished: tuple[Path, Path]) -> None:
    config, run = finished
    result = run_experiment(load_config(config), output=run, resume=True)
    assert (result.status, result.resumed, result.decisions) == ("complete", 12, 12)


@pytest.mark.parametrize(
    ("change", "changed"),
    [
        (_add_skill, "catalogs.devtools"),
        (_rewrite_description, "catalogs.devtools"),
        (_rewrite_long_body, "catalogs.devtools"),
        (_other_warm_start, "usage.warm_start"),
    ],
)
def test_resume_after_an_input_changed_is_refused_and_touches_nothing(
    finished: tuple[Path, Path], change: Callable[[Path], None], changed: str
) -> None:
    config, run = finished
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    hash_before = load_config(config).config_hash()
    change(config.parent)
    assert load_config(config).config_hash() == hash_before  # the config hash stays
    with pytest.raises(SkillbenchError) as caught:
        run_experiment(load_config(config), output=run, resume=True)
    message = str(caught.value)
    assert f"cannot resume: {changed} changed since the run started" in message
    assert "usage.warm_start file" in message  # says what it compares
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before


def test_input_digests_are_the_same_in_another_folder(
    finished: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A body left in its file is digested by content, not by where the file lies."""
    config, run = finished
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "project"
    shutil.copytree(config.parent, elsewhere, ignore=shutil.ignore_patterns("run"))
    moved = run_experiment(load_config(elsewhere / config.name), output=elsewhere / "run")
    inputs = [json.loads((d / "manifest.json").read_text())["inputs"] for d in (run, moved.run_dir)]
    assert inputs[0] == inputs[1] and "catalogs.devtools" in inputs[0]
