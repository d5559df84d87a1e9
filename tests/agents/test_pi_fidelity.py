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
