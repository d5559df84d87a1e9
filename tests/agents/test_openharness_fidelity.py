"""OpenHarness 0.1.9 live: the openharness profile's render equals the listing ``oh -p`` sends.

Each test installs skills in ``~/.openharness/skills`` of a temporary HOME, runs one offline
turn against the loopback recorder (OpenAI chat completions, the endpoint given on the
command line) and renders the same installed skills with the openharness profile, byte for
byte. The expected lines are written by hand from OpenHarness's format: ``- **folder**: text``
(`` (name)`` after the folder where the front matter names the skill otherwise), by folder
name in code points, the bundled skills sorted in.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity
from skillbench.catalog import SourceSpec, load_catalog
from tests.support.agents import needs_agent

CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _write(root: Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text(text)


def _identical(sources: list[SourceSpec]) -> str:
    result = agent_fidelity("openharness", sources)
    assert result.version == "0.1.9"
    assert result.identical, "\n".join(result.lines[:20])
    return result.listing


def _lines(listing: str) -> list[str]:
    return [line for line in listing.splitlines() if line.startswith("- **")]


@needs_agent("openharness")
def test_two_skills(tmp_path: Path) -> None:
    skills = tmp_path / "s"
    _write(skills, "alpha", "---\nname: alpha\ndescription: Alpha does A.\n---\nBody.\n")
    _write(skills, "beta", "---\nname: beta-x\ndescription: |\n  Beta one.\n  Two.\n---\n")
    listing = _identical([SourceSpec(str(skills), "user")])
    assert listing.startswith("# Available Skills\n\nThe following skills are available via")
    assert "- **alpha**: Alpha does A.\n" in listing
    assert "- **beta** (beta-x): Beta one.\nTwo." in listing
    names = [line.split("**")[1] for line in _lines(listing)]
    assert names == sorted(names) and len(names) >= 10  # eight bundled skills sorted in


@needs_agent("openharness")
def test_fallbacks_order_and_taken_names(tmp_path: Path) -> None:
    """No description: the first line of text, front matter included; a boolean
    description is no string; upper case sorts first; ``z`` named ``a`` takes ``a``'s only
    name; ``x-plan`` named ``plan`` takes the bundled ``plan``;
    ``disable-model-invocation: 'yes'`` hides a skill."""
    skills = tmp_path / "s"
    _write(skills, "nodesc", "---\nname: nodesc\n---\n# Title\n\nBody.\n")
    _write(skills, "flag", "---\nname: flag\ndescription: on\n---\n")
    _write(skills, "Upper", "---\nname: Upper\ndescription: U.\n---\n")
    _write(skills, "a", "---\nname: a\ndescription: Mine A.\n---\n")
    _write(skills, "z", "---\nname: a\ndescription: Z takes a.\n---\n")
    _write(skills, "x-plan", "---\nname: plan\ndescription: My plan.\n---\n")
    _write(
        skills, "off", "---\nname: off\ndescription: Off.\ndisable-model-invocation: 'yes'\n---\n"
    )
    _write(skills, "head", "# Heading Name\n\nFirst text line.\n")
    lines = _lines(_identical([SourceSpec(str(skills), "user")]))
    assert "- **nodesc**: name: nodesc" in lines and "- **flag**: name: flag" in lines
    assert "- **head** (Heading Name): First text line." in lines
    assert lines[0] == "- **Upper**: U."
    assert "- **z** (a): Z takes a." in lines and "- **a**: Mine A." not in lines
    assert "- **x-plan** (plan): My plan." in lines
    assert not [line for line in lines if line.startswith(("- **plan**", "- **off**"))]


@needs_agent("openharness")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "user")])


@needs_agent("openharness")
def test_all_catalogs_together(shared_data: Path) -> None:
    roots = [shared_data / "catalogs" / n for n in CATALOGS]
    listing = _identical([SourceSpec(str(r), "user") for r in roots])
    assert len(_lines(listing)) > 200


@needs_agent("openharness")
def test_a_project_source_is_refused(tmp_path: Path) -> None:
    """0.1.9 reads no project skills folder: a capture cannot install one (a failure the
    profile does not predict stays an error)."""
    skills = tmp_path / "s"
    _write(skills, "alpha", "---\nname: alpha\ndescription: A.\n---\n")
    with pytest.raises(Exception, match="no folder for project skills"):
        agent_fidelity("openharness", [SourceSpec(str(skills), "project")])


def test_a_yaml_surrogate_escape_is_predicted_to_fail_every_turn(tmp_path: Path) -> None:
    """PyYAML reads ``"\\ud83d\\ude80"`` as two lone surrogates, which no UTF-8 request can
    carry: the profile says the agent fails (an error naming the file, marked
    ``agent_fails``); a skill written with the emoji itself loads as any other."""
    skills = tmp_path / "s"
    _write(skills, "rocket", '---\nname: rocket\ndescription: "go \\ud83d\\ude80"\n---\n')
    _write(skills, "plain", "---\nname: plain\ndescription: go \U0001f680\n---\n")
    catalog = load_catalog([SourceSpec(str(skills), "user")], profile="openharness")
    fatal = [d for d in catalog.diagnostics if d.agent_fails]
    assert [Path(d.path).parent.name for d in fatal] == ["rocket"]
    assert fatal[0].severity == "error" and "surrogate" in fatal[0].reason


@needs_agent("openharness")
def test_a_yaml_surrogate_escape_fails_the_turn_as_predicted(tmp_path: Path) -> None:
    """The agent prints ``API error`` and exits 0 without calling the model; fidelity calls
    that agreement only because the profile predicted it, and quotes the agent's words."""
    skills = tmp_path / "s"
    _write(skills, "rocket", '---\nname: rocket\ndescription: "go \\ud83d\\ude80"\n---\n')
    result = agent_fidelity("openharness", [SourceSpec(str(skills), "user")])
    assert result.identical and result.listing == ""
    assert re.search(r"API error: .*surrogates not allowed", result.notes[-1])


@needs_agent("openharness")
def test_a_zero_width_space_is_kept(tmp_path: Path) -> None:
    """OpenHarness strips only Unicode whitespace: a trailing U+200B (a format character, not
    whitespace) stays in the listed text."""
    skills = tmp_path / "s"
    _write(skills, "zw", "---\nname: zw\ndescription: Merge pdf files \u200b\n---\nBody.\n")
    listing = _identical([SourceSpec(str(skills), "user")])
    assert listing.endswith("- **zw**: Merge pdf files \u200b")  # the last skill by name
