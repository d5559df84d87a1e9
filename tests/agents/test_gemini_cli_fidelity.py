"""Gemini CLI 0.61.0 live: the gemini-cli profile's render equals the skills block it sends.

Each test lays skills out where Gemini CLI looks, runs one offline turn against the loopback
recorder (its Gemini ``streamGenerateContent`` wire) and renders the same installed skills
with the gemini-cli profile (the capture's snapshot for the agent's built-in skills), byte
for byte. The expected entries are written from the agent's rules by hand: built-ins first,
then user skills, then workspace skills, each folder in descending folder-name order.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity, capture_agent
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.listing import PROFILES
from tests.support.agents import needs_agent
from tests.support.skill_files import render_skills, write_skills

SKILL = "---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"
CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _skills(root: Path, **descriptions: str) -> Path:
    for name, description in descriptions.items():
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(SKILL.format(name=name, description=description))
    return root


def _identical(sources: list[SourceSpec], **capture: object) -> str:
    result = agent_fidelity("gemini-cli", sources, **capture)
    assert result.version == "0.61.0"
    assert result.identical, "\n".join(result.lines[:20])
    assert not result.notes
    return result.listing


def _names(listing: str) -> list[str]:
    return re.findall(r"<name>(.*?)</name>", listing)


@needs_agent("gemini-cli")
def test_two_skills(tmp_path: Path) -> None:
    """Two project skills: the built-ins, then ``zeta-tool`` before ``db-migrate`` (the
    folder's names in descending order), each as a five-line ``<skill>`` element whose
    location is the installed ``SKILL.md``."""
    skills = _skills(tmp_path / "s", **{"db-migrate": "Migrate.", "zeta-tool": "Zeta things."})
    listing = _identical([SourceSpec(str(skills), "project")])
    assert listing.startswith("<available_skills>\n  <skill>\n    <name>")
    assert _names(listing)[-2:] == ["zeta-tool", "db-migrate"]
    assert re.search(
        r"  <skill>\n    <name>db-migrate</name>\n    <description>Migrate\.</description>\n"
        r"    <location>/\S+/project/\.gemini/skills/db-migrate/SKILL\.md</location>\n"
        r"  </skill>\n</available_skills>$",
        listing,
    )


@needs_agent("gemini-cli")
def test_user_before_workspace_and_text_unescaped(tmp_path: Path) -> None:
    """User skills come before workspace skills whatever their names; a description goes
    out as written (``<``, ``&`` and quotes unescaped)."""
    user = _skills(tmp_path / "u", **{"zz-user": 'Says "hi" & <waves>.'})
    _skills(tmp_path / "p", **{"aa-project": "Project."})
    listing = _identical(
        [SourceSpec(str(tmp_path / "p"), "project"), SourceSpec(str(user), "user")]
    )
    assert _names(listing)[-2:] == ["zz-user", "aa-project"]
    assert '<description>Says "hi" & <waves>.</description>' in listing


@needs_agent("gemini-cli")
def test_block_scalars_keep_their_line_breaks(tmp_path: Path) -> None:
    """YAML's folded ``>`` keeps a final newline and literal ``|-`` its inner ones: the
    agent sends the parsed value untouched."""
    for name, block in (("folded", ">\n  one\n  two\n"), ("literal", "|-\n  one\n  two\n")):
        (tmp_path / "s" / name).mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: {block}---\nB\n"
        (tmp_path / "s" / name / "SKILL.md").write_text(text)
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    assert "<description>one\ntwo</description>" in listing
    assert "<description>one two\n</description>" in listing


@needs_agent("gemini-cli")
def test_disable_model_invocation_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "s" / "manual").mkdir(parents=True)
    text = "---\nname: manual\ndescription: Manual.\ndisable-model-invocation: true\n---\nB\n"
    (tmp_path / "s" / "manual" / "SKILL.md").write_text(text)
    assert _names(_identical([SourceSpec(str(tmp_path / "s"), "project")]))[-1] == "manual"


@needs_agent("gemini-cli")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("gemini-cli")
def test_all_shared_catalogs_together(shared_data: Path) -> None:
    """Every shared skill in one folder, no budget: all are listed in full. The
    anthropics ``skill-creator`` replaces the built-in of that name in its place (first)."""
    sources = [SourceSpec(str(shared_data / "catalogs" / n), "project") for n in CATALOGS]
    listing = _identical(sources)
    catalog = load_catalog(sources, profile="gemini-cli")
    assert _names(listing).count("skill-creator") == 1
    assert _names(listing)[0] == "skill-creator"
    assert len(_names(listing)) >= len(catalog.skills)


@needs_agent("gemini-cli")
def test_capture_reads_the_builtins_into_the_snapshot(tmp_path: Path) -> None:
    """The snapshot holds the agent's own skills with their locations in the installed
    package, and its tools hold ``activate_skill`` with the listed names as its enum."""
    skills = _skills(tmp_path / "s", **{"pdf-tools": "PDF things."})
    cap = capture_agent("gemini-cli", [f"project={skills}"], workdir=tmp_path / "w")
    assert cap.snapshot is not None and cap.snapshot.builtin_skills
    assert all(b.path and b.path.endswith("/SKILL.md") for b in cap.snapshot.builtin_skills)
    tool = next(t for t in cap.tools if t.get("name") == "activate_skill")
    enum = json.dumps(tool)
    assert '"pdf-tools"' in enum
    assert PROFILES.get("gemini-cli").agent_version == cap.version
    saved = cap.save(tmp_path / "out")
    assert (saved / "listing.txt").read_text() == cap.listing


FRONT_MATTER = {
    "keep": "description: |+\n  one\n  two\n\n",
    "folded": "description: >-\n  one\n  two\n",
    "unclosed": "description: [a, b\n",
    "colons": "description: use when: foo # comment\n",
    "plain-lines": "description: first line\n  second line\n",
    "quoted": "description: 'it''s: #x'\n",
}


@needs_agent("gemini-cli")
def test_front_matter_js_yaml_then_line_parser(tmp_path: Path) -> None:
    """YAML the agent's parser rejects is read line by line (``[a, b`` and ``: `` values
    listed as written, comment included); a block's last line break is not part of the YAML
    (``|+`` keeps one); a skill without a ``name`` or ``description`` is not listed."""
    root = tmp_path / "s"
    for name, line in FRONT_MATTER.items():
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(f"---\nname: {name}\n{line}---\nBody\n")
    (root / "nameless").mkdir()
    (root / "nameless" / "SKILL.md").write_text("---\ndescription: No name.\n---\nBody\n")
    (root / "undescribed").mkdir()
    (root / "undescribed" / "SKILL.md").write_text("---\nname: undescribed\n---\nBody\n")
    listing = _identical([SourceSpec(str(root), "project")])
    assert _names(listing)[-6:] == ["unclosed", "quoted", "plain-lines", "keep", "folded", "colons"]
    for name, text in (
        ("keep", "one\ntwo\n"),
        ("unclosed", "[a, b"),
        ("colons", "use when: foo # comment"),
        ("plain-lines", "first line second line"),
        ("quoted", "it's: #x"),
    ):
        assert f"<name>{name}</name>\n    <description>{text}</description>" in listing


@needs_agent("gemini-cli")
def test_names_kept_or_rewritten_never_rejected(tmp_path: Path) -> None:
    """Any name is listed: capitals, spaces, dots and 200 characters as written, ``: /``
    written as ``-``."""
    names = {"dots": "a.b.c", "colon": "ns:tool", "space": "has space", "slash": "a/b"}
    names |= {"upper": "UpperCase", "long": "x" * 200}
    root = tmp_path / "s"
    for folder, name in names.items():
        (root / folder).mkdir(parents=True)
        (root / folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: D.\n---\n")
    listing = _identical([SourceSpec(str(root), "project")])
    assert _names(listing)[-6:] == ["UpperCase", "has space", "a-b", "x" * 200, "a.b.c", "ns-tool"]


@needs_agent("gemini-cli")
def test_same_name_takes_the_earlier_place(tmp_path: Path) -> None:
    """A folder loads in descending folder-name order and a later skill of a name replaces
    the earlier one in its place: the workspace's ``shared`` sits where the user's was,
    and of two ``same`` in one folder ``a-same`` wins in ``z-same``'s place."""
    for root, folder, name in (
        ("u", "a-shared", "shared"),
        ("u", "b-user", "b-user"),
        ("p", "z-same", "same"),
        ("p", "m-mid", "m-mid"),
        ("p", "a-same", "same"),
        ("p", "c-shared", "shared"),
    ):
        (tmp_path / root / folder).mkdir(parents=True)
        (tmp_path / root / folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: From {folder}.\n---\n"
        )
    listing = _identical(
        [SourceSpec(str(tmp_path / "u"), "user"), SourceSpec(str(tmp_path / "p"), "project")]
    )
    assert _names(listing)[-4:] == ["b-user", "shared", "same", "m-mid"]
    assert re.findall(r"From ([\w-]+)\.", listing)[-4:] == ["b-user", "c-shared", "a-same", "m-mid"]


FUZZ_SHAPES: dict[str, str | bytes] = {
    "f1-empty-name": '---\nname: ""\ndescription: "render audit"\n---\nBody.\n',
    "f2-empty-text": "---\nname: f2-empty-text\ndescription: ''\n---\n# T\n\nBody first line.\n",
    "f3-null-text": "---\nname: f3-null-text\ndescription:\n---\n# T\n\nBody first line.\n",
    "f4-bom": "\ufeff---\nname: f4-bom\ndescription: lint cache\n---\nBody.\n",
    "f5-pairs": '---\nname: "f5-<x>"\ndescription: "a \\ud83d\\ude80 b"\n---\nBody.\n',
    "f6-zero-width": "---\nname: f6-zero-width\ndescription: a ∑ \u200b\n---\nBody.\n",
}
"""Shapes the differential tester found listed otherwise than skillbench rendered them."""


def test_fuzz_shapes_render_as_gemini_lists_them(tmp_path: Path) -> None:
    """Gemini CLI 0.61.0, captured: a name or description written empty (``""``, ``''`` or
    nothing) is listed empty, not replaced by the folder's name or the body; a file opening
    with a byte-order mark is not loaded; a surrogate-pair escape is its emoji (js-yaml) and
    ``<``/``>`` in the name are written as ``-``; a closing zero-width space is kept.
    Folders in descending order."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    loc = "~/.gemini/skills"
    expected = [
        ("f6-zero-width", "a ∑ \u200b"),
        ("f5--x-", "a 🚀 b"),
        ("f3-null-text", ""),
        ("f2-empty-text", ""),
        ("", "render audit"),
    ]
    folders = ["f6-zero-width", "f5-pairs", "f3-null-text", "f2-empty-text", "f1-empty-name"]
    elements = [
        f"  <skill>\n    <name>{name}</name>\n    <description>{text}</description>\n"
        f"    <location>{loc}/{folder}/SKILL.md</location>\n  </skill>"
        for (name, text), folder in zip(expected, folders, strict=True)
    ]
    assert render_skills("gemini-cli", root) == (
        "<available_skills>\n" + "\n".join(elements) + "\n</available_skills>"
    )


@needs_agent("gemini-cli")
def test_fuzz_shapes_live(tmp_path: Path) -> None:
    """The same shapes through the real agent: byte-identical, with the empty name listed
    and the BOM file left out."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    listing = _identical([SourceSpec(str(root), "user")])
    assert "<name></name>\n    <description>render audit</description>" in listing
    assert "f4-bom" not in listing
    assert "<name>f5--x-</name>\n    <description>a 🚀 b</description>" in listing
