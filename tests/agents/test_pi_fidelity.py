"""Pi 0.73.1 live: the pi profile's render equals the listing Pi sends.

Each test lays skills out where Pi looks, runs one offline turn against the loopback
recorder (OpenAI chat completions, the provider written to ``~/.pi/agent/models.json``) and
renders the same installed skills with the pi profile, byte for byte. The expected elements
are written by hand from Pi's format: indented XML elements, every text XML-escaped (``'``
as ``&apos;``), the description as YAML reads it, the ``SKILL.md``'s absolute path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity
from skillbench.catalog import SourceSpec
from tests.support.agents import needs_agent
from tests.support.skill_files import render_skills, write_skills

CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _write(root: Path, name: str, frontmatter: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(f"---\nname: {name}\n{frontmatter}---\nBody.\n")


def _identical(sources: list[SourceSpec]) -> str:
    result = agent_fidelity("pi", sources)
    assert result.version == "0.73.1"
    assert result.identical, "\n".join(result.lines[:20])
    return result.listing


@needs_agent("pi")
def test_project_before_user_first_of_a_name_wins(tmp_path: Path) -> None:
    project, user = tmp_path / "p", tmp_path / "u"
    _write(project, "zeta", "description: Project zeta.\n")
    _write(user, "zeta", "description: User zeta.\n")
    _write(user, "alpha", 'description: |\n  It\'s <a> & "b".\n  Two.\n')
    _write(user, "hidden", "description: Off.\ndisable-model-invocation: true\n")
    listing = _identical([SourceSpec(str(project), "project"), SourceSpec(str(user), "user")])
    assert "User zeta." not in listing and "hidden" not in listing
    assert listing.index("<name>zeta</name>") < listing.index("<name>alpha</name>")
    text = "It&apos;s &lt;a&gt; &amp; &quot;b&quot;.\nTwo.\n"
    assert f"<name>alpha</name>\n    <description>{text}</description>" in listing
    assert listing.startswith("The following skills") and listing.endswith("</available_skills>")


@needs_agent("pi")
def test_folder_order_not_name_order(tmp_path: Path) -> None:
    """A skill is placed by its folder's name: ``b-dir`` holding ``zz`` comes before
    ``c-dir`` holding ``aa``."""
    skills = tmp_path / "s"
    (skills / "b-dir").mkdir(parents=True)
    (skills / "b-dir" / "SKILL.md").write_text("---\nname: zz\ndescription: Z.\n---\n")
    (skills / "c-dir").mkdir(parents=True)
    (skills / "c-dir" / "SKILL.md").write_text("---\nname: aa\ndescription: A.\n---\n")
    listing = _identical([SourceSpec(str(skills), "project")])
    assert listing.index("<name>zz</name>") < listing.index("<name>aa</name>")


@needs_agent("pi")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("pi")
def test_all_catalogs_together(shared_data: Path) -> None:
    roots = [shared_data / "catalogs" / n for n in CATALOGS]
    listing = _identical([SourceSpec(str(r), "project") for r in roots])
    assert listing.count("<skill>") > 200


FUZZ_SHAPES: dict[str, str | bytes] = {
    "p-slash": "---\nname: p/tokens/x\ndescription: slash\n---\nBody.\n",
    "p-space": "---\nname: P trace  two\ndescription: spaces\n---\nBody.\n",
    "p-long": "---\nname: p-" + "x" * 90 + "\ndescription: long\n---\nBody.\n",
    "p-pairs": '---\nname: "p-&<x>"\ndescription: "a \\ud83d\\ude80 b"\n---\nBody.\n',
    "p-keep": "---\nname: p-keep\ndescription: >+\n  a\n  b\n\n---\nBody.\n",
    "p-missing": "---\nname: p-missing\n---\n# T\n\nBody line.\n",
    "p-empty": '---\nname: p-empty\ndescription: ""\n---\nBody.\n',
    "p-number": "---\nname: p-number\ndescription: 12.50\n---\nBody.\n",
    "p-list": "---\nname: p-list\ndescription:\n  - a\n  - b\n---\nBody.\n",
    "p-bom": "\ufeff---\nname: p-bom\ndescription: bom\n---\nBody.\n",
    "p-unclosed": "---\nname: p-unclosed\ndescription: open\nBody.\n",
}
"""Shapes the differential tester found listed otherwise than skillbench rendered them."""


def test_fuzz_shapes_render_as_pi_lists_them(tmp_path: Path) -> None:
    """Pi 0.73.1, captured: any name is listed as written (escaped), a surrogate pair is its
    emoji, a ``>+`` block ending the front matter keeps one newline; a description that is
    missing, empty, a number or a list, a BOM and an unclosed front matter leave the skill
    out. Folders in name order."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    listed = [
        ("p-keep", "a b\n", "p-keep"),
        ("p-" + "x" * 90, "long", "p-long"),
        ("p-&amp;&lt;x&gt;", "a 🚀 b", "p-pairs"),
        ("p/tokens/x", "slash", "p-slash"),
        ("P trace  two", "spaces", "p-space"),
    ]
    elements = "\n".join(
        f"  <skill>\n    <name>{name}</name>\n    <description>{text}</description>\n"
        f"    <location>~/.pi/agent/skills/{folder}/SKILL.md</location>\n  </skill>"
        for name, text, folder in listed
    )
    listing = render_skills("pi", root)
    assert listing.endswith(f"<available_skills>\n{elements}\n</available_skills>")


@needs_agent("pi")
def test_fuzz_shapes_live(tmp_path: Path) -> None:
    """The same shapes through the real agent: byte-identical."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    listing = _identical([SourceSpec(str(root), "user")])
    assert "<name>p/tokens/x</name>" in listing and "p-bom" not in listing


@needs_agent("pi")
def test_no_skill_listed_is_an_empty_listing(tmp_path: Path) -> None:
    """Pi sends no listing block when it lists no skill: that is an empty listing, the
    same as skillbench renders (not an error)."""
    root = write_skills(tmp_path / "s", {"p-empty": FUZZ_SHAPES["p-empty"]})
    assert _identical([SourceSpec(str(root), "user")]) == ""
