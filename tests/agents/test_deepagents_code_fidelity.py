"""Deep Agents Code 0.1.57 live: the deepagents-code profile's render equals the listing
``dcode -n`` sends.

Each test installs skills in a temporary HOME and git project, runs one offline turn against
the loopback recorder (OpenAI Responses, ``OPENAI_BASE_URL``) and renders the same installed
skills with the deepagents-code profile, byte for byte. The expected lines are written by
hand from the agent's format: ``- **name**: description``, `` (License: …, Compatibility:
…)`` where set, ``  -> Allowed tools: …`` where set, then ``  -> Read `PATH` for full
instructions``; the built-in skills first, then each folder's skills by path.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity
from skillbench.catalog import SourceSpec, load_catalog
from tests.support.agents import needs_agent

CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")
BUILT_INS = 3


def _write(root: Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text(text, encoding="utf-8")


def _identical(sources: list[SourceSpec]) -> str:
    result = agent_fidelity("deepagents-code", sources)
    assert result.version == "0.1.57"
    assert result.identical, "\n".join(result.lines[:20])
    return result.listing


def _entries(listing: str) -> list[str]:
    """Each skill's first line, the built-ins left out."""
    return [line for line in listing.splitlines() if line.startswith("- **")][BUILT_INS:]


@needs_agent("deepagents-code")
def test_two_skills_with_details_and_a_project_override(tmp_path: Path) -> None:
    user, project = tmp_path / "u", tmp_path / "p"
    _write(
        user,
        "alpha",
        "---\nname: alpha\ndescription: Alpha does A.\nlicense: MIT\n"
        "allowed-tools: Bash, Read\n---\nBody.\n",
    )
    _write(user, "beta", "---\nname: beta\ndescription: >\n  Beta one\n  two.\n---\n")
    _write(project, "alpha", "---\nname: alpha\ndescription: Project A.\n---\n")
    listing = _identical([SourceSpec(str(user), "user"), SourceSpec(str(project), "project")])
    assert listing.startswith("**Available Skills:**\n\n- **")
    assert _entries(listing) == ["- **alpha**: Project A.", "- **beta**: Beta one two."]
    alone = _identical([SourceSpec(str(user), "user")])
    assert "- **alpha**: Alpha does A. (License: MIT)\n  -> Allowed tools: Bash, Read\n" in alone


@needs_agent("deepagents-code")
def test_values_as_python_writes_them_and_paths_order(tmp_path: Path) -> None:
    """``str()`` of each value: an empty name is ``None``, ``yes`` is ``True``, ``1.50`` is
    ``1.5``; a folder sorts by its path with a slash after it, so ``a-b`` comes before
    ``a``; no description, a byte-order mark or a linked ``SKILL.md``: not listed; a long
    description keeps 1,024 characters."""
    skills = tmp_path / "s"
    _write(skills, "a", "---\nname: a\ndescription: yes\ncompatibility: 1.50\n---\n")
    _write(skills, "a-b", "---\nname:\ndescription: Empty name.\n---\n")
    _write(skills, "long", f"---\nname: long\ndescription: {'x' * 1100}\n---\n")
    _write(skills, "nodesc", "---\nname: nodesc\n---\nBody.\n")
    (skills / "bom").mkdir()
    (skills / "bom" / "SKILL.md").write_bytes(b"\xef\xbb\xbf---\nname: bom\ndescription: B.\n---\n")
    _write(tmp_path / "elsewhere", "linked", "---\nname: linked\ndescription: L.\n---\n")
    (skills / "linked").mkdir()
    os.symlink(tmp_path / "elsewhere" / "linked" / "SKILL.md", skills / "linked" / "SKILL.md")
    entries = _entries(_identical([SourceSpec(str(skills), "user")]))
    assert entries == [
        "- **None**: Empty name.",
        "- **a**: True (Compatibility: 1.5)",
        f"- **long**: {'x' * 1024}",
    ]


def test_a_profile_reading_lists_what_the_agent_reads(tmp_path: Path) -> None:
    """Without the agent: the reader keeps the fields the listing shows beside the
    description and refuses a file the agent does not load, saying why."""
    skills = tmp_path / "s"
    _write(skills, "tools", "---\nname: tools\ndescription: T.\nallowed-tools: [a , ' b']\n---\n")
    _write(skills, "bad", "---\nname: bad\ndescription: [unclosed\n---\n")
    catalog = load_catalog([SourceSpec(str(skills), "user")], profile="deepagents-code")
    assert [s.name for s in catalog.skills] == ["tools"]
    assert catalog.skills[0].listed["allowed-tools"] == "a, b"
    bad = [d for d in catalog.diagnostics if Path(d.path).parent.name == "bad"]
    assert bad and bad[0].severity == "error" and "invalid YAML" in bad[0].reason


@pytest.mark.slow  # 30-50 s each; the catalogs together run by default
@needs_agent("deepagents-code")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("deepagents-code")
def test_all_catalogs_together(shared_data: Path) -> None:
    roots = [shared_data / "catalogs" / n for n in CATALOGS]
    listing = _identical([SourceSpec(str(r), "user") for r in roots])
    assert len(_entries(listing)) > 200
