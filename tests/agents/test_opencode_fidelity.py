"""opencode 1.18.33 live: the opencode profile's render equals the listing opencode sends.

Each test lays skills out where opencode looks, runs one offline turn against the loopback
recorder (OpenAI chat completions) and renders the same installed skills with the opencode
profile (the capture's snapshot for opencode's own skill), byte for byte. The expected
elements are written out by hand from opencode's format: name and description as YAML reads
them (not escaped, line breaks kept), the SKILL.md's absolute path XML-escaped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity, capture_agent
from skillbench.catalog import SourceSpec
from tests.support.agents import needs_agent

CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _write(root: Path, name: str, frontmatter: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(f"---\nname: {name}\n{frontmatter}---\nBody.\n")


def _identical(sources: list[SourceSpec]) -> str:
    result = agent_fidelity("opencode", sources)
    assert result.version == "1.18.33"
    assert result.identical, "\n".join(result.lines[:20])
    assert not result.notes
    return result.listing


@needs_agent("opencode")
def test_two_skills_project_and_user_text_as_written(tmp_path: Path) -> None:
    """A folded description ending the frontmatter keeps its closing break; quotes and
    angle brackets are not escaped; a disable-model-invocation skill is still listed; a
    skill without a description is not."""
    project, user = tmp_path / "p", tmp_path / "u"
    _write(
        project,
        "db-migrate",
        'disable-model-invocation: true\ndescription: >\n  Migrate "main"\n  <now> & later.\n',
    )
    _write(user, "zeta-tool", "description: Zeta's things.\n")
    _write(user, "no-words", "")
    listing = _identical([SourceSpec(str(project), "project"), SourceSpec(str(user), "user")])
    lines = listing.splitlines()
    assert lines[0] == "<available_skills>" and lines[-1] == "</available_skills>"
    description = '    <description>Migrate "main" <now> & later.\n</description>\n'
    assert "    <name>db-migrate</name>\n" + description in listing
    assert "<name>no-words</name>" not in listing
    zeta = [line for line in lines if "zeta-tool/SKILL.md" in line]
    assert len(zeta) == 1 and zeta[0].startswith("    <location>/") and "&" not in zeta[0]
    assert "    <description>Zeta's things.</description>" in lines
    assert listing.index("<name>db-migrate</name>") < listing.index("<name>zeta-tool</name>")


@needs_agent("opencode")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("opencode")
def test_all_four_catalogs_together(shared_data: Path) -> None:
    """Every one of the 248 skills is listed (opencode does not read
    disable-model-invocation), with opencode's own skill."""
    root = shared_data / "catalogs"
    listing = _identical([SourceSpec(str(root), "project")])
    assert listing.count("  <skill>\n") == len(list(root.rglob("SKILL.md"))) + 1


@needs_agent("opencode")
def test_the_snapshot_holds_the_built_in_skill_and_the_skill_tool(tmp_path: Path) -> None:
    skills = tmp_path / "s"
    _write(skills, "pdf-tools", "description: PDF things.\n")
    cap = capture_agent("opencode", [f"project={skills}"], workdir=tmp_path / "w")
    assert cap.snapshot is not None and len(cap.snapshot.builtin_skills) == 1
    assert cap.listing.count("<location>&lt;built-in&gt;</location>") == 1
    skill = [t for t in cap.tools if t["function"]["name"] == "skill"]
    assert list(skill[0]["function"]["parameters"]["properties"]) == ["name"]
    assert all(r.path == "/v1/chat/completions" for r in cap.requests)


@needs_agent("opencode")
def test_names_outside_the_agent_skills_rule_are_listed(tmp_path: Path) -> None:
    """opencode 1.18.33 lists a SKILL.md's name as written: a leading or trailing hyphen,
    a double hyphen, capitals, dots, colons, an underscore, a space, non-ASCII letters."""
    names = ["a-", "-a", "a--b", "Upper-Case", "a.b", "a:b", "a_b", "sp ace", "é-x", "1"]
    for i, name in enumerate(names):
        folder = tmp_path / "s" / f"f{i:02d}"
        folder.mkdir(parents=True)
        text = f'---\nname: "{name}"\ndescription: desc {i}\n---\nBody.\n'
        (folder / "SKILL.md").write_text(text)
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    for i, name in enumerate(names):
        assert f"<name>{name}</name>\n    <description>desc {i}</description>" in listing
