"""Results must not depend on where the repository is checked out.

The bundled dataset and a config are copied to two folders of different depth and run; the
``results.jsonl`` files must be byte-identical once the timing field is removed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillbench.catalog import Skill, load_catalog
from skillbench.cli._main import main
from skillbench.cost import process_invocation, skill_dir_of
from skillbench.listing import render_listing

SOURCES = """\
catalogs:
  devtools:
    - {path: datasets/devtools/skills/bundled, source: bundled}
    - {path: datasets/devtools/skills/user, source: user}
    - {path: datasets/devtools/skills/project, source: project}
    - {path: datasets/devtools/skills/plugin, source: plugin}
cwd: datasets/devtools/workspace
requests: datasets/devtools/requests.jsonl
limit: 150
seed: 0
usage: {record: label}
"""
QUICKSTART_STYLE = f"""\
name: portable-quick
{SOURCES}profiles: [codebot]
budgets: [2000, 4000]
orderings: [usage, alpha]
selectors: [{{type: lexical, threshold: 1.0}}, {{type: oracle}}]
"""
CODEX = f"""\
name: portable-codex
{SOURCES}profiles: [codex, {{name: claude-code, context_window: 100000}}]
budgets: [3000, null]
selectors: [{{type: lexical, threshold: 1.0}}, {{type: oracle}}]
"""


def _clone(repo_root: Path, into: Path) -> Path:
    shutil.copytree(repo_root / "datasets" / "devtools", into / "datasets" / "devtools")
    (into / "configs").mkdir(parents=True)
    return into


def _results(clone: Path, config: str, out: Path) -> list[dict[str, object]]:
    path = clone / "configs" / "run.yaml"
    path.write_text(config, encoding="utf-8")
    assert main(["run", str(path), "-o", str(out), "--quiet"]) == 0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    for row in rows:
        row.pop("latency_ms")
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("config", [QUICKSTART_STYLE, CODEX], ids=["quickstart", "codex"])
def test_two_clones_at_different_depths_give_identical_results(
    repo_root: Path, tmp_path: Path, config: str
) -> None:
    shallow = _clone(repo_root, tmp_path / "a")
    deep = _clone(repo_root, tmp_path / "b" / "much" / "deeper" / "checkout" / "folder")
    first = _results(shallow, config, tmp_path / "out-a")
    second = _results(deep, config, tmp_path / "out-b")
    assert first and first == second
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_codex_paths_are_those_of_a_users_machine(repo_root: Path, tmp_path: Path) -> None:
    clone = _clone(repo_root, tmp_path / "somewhere" / "deep")
    skills = clone / "datasets" / "devtools" / "skills"
    catalog = load_catalog(
        [f"project={skills / 'project'}", f"user={skills / 'user'}"], profile="codex"
    )
    listing = render_listing(catalog.skills, profile="codex", budget=100_000)
    assert str(tmp_path) not in listing.text
    # Codex shortens paths with a roots table: user roots first, then the project's.
    assert "- `r0` = `~/.agents/skills`\n- `r1` = `.agents/skills`\n" in listing.text
    assert "(file: r1/changelog/SKILL.md)" in listing.text
    assert "(file: r0/debug/SKILL.md)" in listing.text
    custom = render_listing(
        catalog.skills, profile="codex", budget=100_000, options={"roots": {"user": "/u"}}
    )
    assert "- `r0` = `/u`\n" in custom.text


def test_skill_dir_expands_to_the_users_folder_not_the_checkout() -> None:
    skill = Skill(
        "review",
        "d",
        body="Read ${CLAUDE_SKILL_DIR}/checklist.md",
        source="project",
        path="/any/checkout/skills/review/SKILL.md",
        rel_path="review/SKILL.md",
    )
    assert skill_dir_of(skill) == ".claude/skills/review"
    text = process_invocation(skill, args=None, via="model").text
    assert "Read .claude/skills/review/checklist.md" in text
