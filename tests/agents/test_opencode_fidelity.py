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

from skillbench.agents import RenderInputs, agent_fidelity, capture_agent, render_capture
from skillbench.catalog import SourceSpec
from tests.support.agents import needs_agent
from tests.support.skill_files import render_skills, write_skills

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


LONG = "o-long-" + "x" * 80
FUZZ_SHAPES: dict[str, str | bytes] = {
    "o-empty-name": '---\nname: ""\ndescription: render audit\n---\nBody.\n',
    "o-empty-text": "---\nname: o-empty-text\ndescription: ''\n---\n# T\n\nBody line.\n",
    "o-null-text": "---\nname: o-null-text\ndescription:\n---\nBody.\n",
    "o-number": "---\nname: o-number\ndescription: 12.50\n---\nBody.\n",
    "o-nameless": "---\ndescription: no name\n---\nBody.\n",
    "o-long": f"---\nname: {LONG}\ndescription: long name\n---\nBody.\n",
    ".o-hidden": "---\nname: o-hidden\ndescription: in a hidden folder\n---\nBody.\n",
    "o-colon": "---\nname: o-colon\ndescription: budget: render retry\n---\nBody.\n",
    "o-keep": "---\nname: o-keep\ndescription: >+\n  a\n  b\n\n---\nBody.\n",
    "o-pairs": '---\nname: "o-pairs-<x>"\ndescription: "a \\ud83d\\ude80 b"\n---\nBody.\n',
    "o-quoted-more": (
        '---\nname: o-quoted-more\ndescription: "trace schema "q": deploy audit"\n---\n'
    ),
}
"""Shapes the differential tester found listed otherwise than skillbench rendered them
(opencode 1.18.33 and Kilo Code 7.7.7 list them alike)."""

FUZZ_LISTED = [
    ("", "render audit", "o-empty-name"),
    ("o-colon", "budget: render retry", "o-colon"),
    ("o-empty-text", "", "o-empty-text"),
    ("o-hidden", "in a hidden folder", ".o-hidden"),
    ("o-keep", "a b\n", "o-keep"),
    (LONG, "long name", "o-long"),
    ("o-pairs-<x>", "a 🚀 b", "o-pairs"),
    ("o-quoted-more", "trace schema ", "o-quoted-more"),
]
"""What the agents listed for ``FUZZ_SHAPES`` (name, description, folder), by name."""


def fuzz_listing(root: str) -> str:
    return (
        "<available_skills>\n"
        + "\n".join(
            f"  <skill>\n    <name>{name}</name>\n    <description>{text}</description>\n"
            f"    <location>{root}/{folder}/SKILL.md</location>\n  </skill>"
            for name, text, folder in FUZZ_LISTED
        )
        + "\n</available_skills>"
    )


def test_fuzz_shapes_render_as_opencode_lists_them(tmp_path: Path) -> None:
    """opencode 1.18.33, captured: a name or description written empty is listed empty (an
    empty name sorts first); a description that is null or a number, or no name, leaves the
    skill out; names of any length; hidden folders are read; ``: `` in a plain value is read
    as a block (the agent's retry), a ``>+`` block keeps one newline, a surrogate pair is its
    emoji; text after a quoted value is another entry (js-yaml 3), so the value ends at its
    closing quote."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    assert render_skills("opencode", root) == fuzz_listing("~/.agents/skills")


@needs_agent("opencode")
def test_fuzz_shapes_live(tmp_path: Path) -> None:
    """The same shapes through the real agent: byte-identical."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    listing = _identical([SourceSpec(str(root), "user")])
    assert "<name></name>\n    <description>render audit</description>" in listing
    assert "o-number" not in listing and "no name" not in listing


@needs_agent("opencode")
def test_same_name_winner_is_the_one_listed(tmp_path: Path) -> None:
    """Two folders declaring one name: opencode reads files concurrently and keeps the one
    read last, so either may be listed; the fidelity check renders the one it listed."""
    root = write_skills(
        tmp_path / "s",
        {f"dup-{i}": f"---\nname: dup\ndescription: from {i}\n---\n" for i in ("one", "two")},
    )
    listing = _identical([SourceSpec(str(root), "user")])
    assert listing.count("<name>dup</name>") == 1


def test_a_racy_clash_renders_the_skill_the_agent_listed(tmp_path: Path) -> None:
    """With ``clash="racy"`` the catalog's winner (the later folder, ``dup-two``) gives way
    to the one whose file the agent's listing names; without a listing it stays."""
    root = write_skills(
        tmp_path / "s",
        {f"dup-{i}": f"---\nname: dup\ndescription: from {i}\n---\n" for i in ("one", "two")},
    )
    inputs = RenderInputs(
        "opencode",
        (SourceSpec(str(root), "user"),),
        {"snapshot": "none", "roots": {"user": str(root)}},
        {},
        "usage",
        str(tmp_path),
    )
    listed = f"<location>{root}/dup-one/SKILL.md</location>"
    assert "<description>from one</description>" in render_capture(inputs, listed).text
    assert "<description>from two</description>" in render_capture(inputs).text
