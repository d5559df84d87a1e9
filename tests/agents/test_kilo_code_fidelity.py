"""Kilo Code CLI 7.7.7 live: the kilo-code profile's render equals the listing Kilo sends.

Each test lays skills out where Kilo looks, runs one offline turn against the loopback
recorder (OpenAI chat completions) and renders the same installed skills with the kilo-code
profile, byte for byte. The expected elements are written out by hand from the format Kilo
shares with opencode: name and description as YAML reads them (not escaped, line breaks
kept), the SKILL.md's absolute path XML-escaped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity
from skillbench.catalog import SourceSpec
from tests.agents.test_opencode_fidelity import FUZZ_SHAPES, fuzz_listing
from tests.support.agents import needs_agent
from tests.support.skill_files import render_skills, write_skills

CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _write(root: Path, name: str, frontmatter: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(f"---\nname: {name}\n{frontmatter}---\nBody.\n")


def _identical(sources: list[SourceSpec]) -> str:
    result = agent_fidelity("kilo-code", sources)
    assert result.version == "7.7.7"
    assert result.identical, "\n".join(result.lines[:20])
    assert not result.notes
    return result.listing


@needs_agent("kilo-code")
def test_two_skills_project_and_user_text_as_written(tmp_path: Path) -> None:
    """A folded description keeps its closing break; quotes and angle brackets are not
    escaped; a skill without a description is not listed."""
    project, user = tmp_path / "p", tmp_path / "u"
    _write(project, "db-migrate", 'description: >\n  Migrate "main"\n  <now> & later.\n')
    _write(user, "zeta-tool", "description: Zeta's things.\n")
    _write(user, "no-words", "")
    listing = _identical([SourceSpec(str(project), "project"), SourceSpec(str(user), "user")])
    lines = listing.splitlines()
    assert lines[0] == "<available_skills>" and lines[-1] == "</available_skills>"
    description = '    <description>Migrate "main" <now> & later.\n</description>\n'
    assert "    <name>db-migrate</name>\n" + description in listing
    assert "<name>no-words</name>" not in listing
    assert "    <description>Zeta's things.</description>" in lines
    assert listing.index("<name>db-migrate</name>") < listing.index("<name>zeta-tool</name>")


@pytest.mark.slow  # 30-50 s each; the catalogs together run by default
@needs_agent("kilo-code")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("kilo-code")
def test_all_four_catalogs_together(shared_data: Path) -> None:
    root = shared_data / "catalogs"
    listing = _identical([SourceSpec(str(root), "project")])
    assert listing.count("  <skill>\n") >= len(list(root.rglob("SKILL.md")))


def test_fuzz_shapes_render_as_kilo_lists_them(tmp_path: Path) -> None:
    """Kilo Code 7.7.7 lists the opencode shapes as opencode 1.18.33 does (captured)."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    assert render_skills("kilo-code", root) == fuzz_listing("~/.agents/skills")


@needs_agent("kilo-code")
def test_fuzz_shapes_live(tmp_path: Path) -> None:
    """The same shapes through the real agent: byte-identical, the empty name listed."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    listing = _identical([SourceSpec(str(root), "user")])
    assert "<name></name>\n    <description>render audit</description>" in listing


def _linked_out(tmp_path: Path) -> Path:
    store = write_skills(tmp_path / "store", {"real": "---\nname: linked\ndescription: D.\n---\n"})
    project = write_skills(tmp_path / "p", {"own": "---\nname: own\ndescription: Own.\n---\n"})
    (project / "linked").symlink_to(store / "real")
    return project


def test_a_project_link_out_of_the_folder_is_not_loaded(tmp_path: Path) -> None:
    """Kilo Code 7.7.7 (captured, fuzz seed 1) does not load a project skill whose folder
    is a link leading out of the skills folder; opencode 1.18.33 lists it."""
    project = _linked_out(tmp_path)
    assert "<name>linked</name>" not in render_skills("kilo-code", project, "project")
    assert "<name>own</name>" in render_skills("kilo-code", project, "project")
    assert "<name>linked</name>" in render_skills("opencode", project, "project")


@needs_agent("kilo-code")
def test_a_project_link_out_of_the_folder_live(tmp_path: Path) -> None:
    listing = _identical([SourceSpec(str(_linked_out(tmp_path)), "project")])
    assert "<name>own</name>" in listing and "<name>linked</name>" not in listing
