"""Cline CLI 3.0.65 live: the cline profile's render equals the listing Cline sends.

Each test lays skills out where Cline looks, runs one offline turn against the loopback
recorder (OpenAI chat completions, the provider written to Cline's ``providers.json``) and
renders the same installed skills with the cline profile, byte for byte. The expected
listings are written by hand from what Cline does: the names only, after
``Available skills: `` at the end of its ``skills`` tool's description, joined by ``, ``
and closed by a full stop; each folder in the order the file system lists it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity
from skillbench.catalog import SourceSpec
from tests.support.agents import needs_agent

CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _write(root: Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text(text)


def _identical(sources: list[SourceSpec]) -> str:
    result = agent_fidelity("cline", sources)
    assert result.version == "3.0.65"
    assert result.identical, "\n".join(result.lines[:20])
    assert not result.notes
    return result.listing


@needs_agent("cline")
def test_two_skills_project_then_user(tmp_path: Path) -> None:
    project, user = tmp_path / "p", tmp_path / "u"
    _write(project, "zeta", "---\nname: zeta\ndescription: Z.\n---\nBody.\n")
    _write(user, "alpha", "---\nname: alpha\ndescription: A.\n---\nBody.\n")
    listing = _identical([SourceSpec(str(project), "project"), SourceSpec(str(user), "user")])
    assert listing == "Available skills: zeta, alpha."


@needs_agent("cline")
def test_what_cline_keeps_out_and_how_it_names(tmp_path: Path) -> None:
    """Kept out: no body, a numeric description, ``disabled: true``, ``enabled: false``,
    broken YAML. Named by its folder without a ``name``; a user skill whose lower-cased
    name a project skill has replaces it in its place."""
    project, user = tmp_path / "p", tmp_path / "u"
    _write(project, "kept", "---\nname: Shared\ndescription: first\n---\nBody.\n")
    _write(project, "empty-body", "---\nname: empty-body\ndescription: d\n---\n\n")
    _write(project, "number", "---\nname: number\ndescription: 12.5\n---\nBody.\n")
    _write(project, "off", "---\nname: off\ndisabled: true\n---\nBody.\n")
    _write(project, "off2", "---\nname: off2\nenabled: false\n---\nBody.\n")
    _write(project, "broken", "---\nname: [broken\n---\nBody.\n")
    _write(project, "folder-name", "---\ndescription: no name\n---\nBody.\n")
    _write(user, "later", "---\nname: shared\ndescription: later\n---\nBody.\n")
    listing = _identical([SourceSpec(str(project), "project"), SourceSpec(str(user), "user")])
    assert listing.startswith("Available skills: ") and listing.endswith(".")
    names = listing.removeprefix("Available skills: ").removesuffix(".").split(", ")
    assert sorted(names) == ["folder-name", "shared"]


@needs_agent("cline")
def test_scalars_typed_as_yaml_1_2_types_them(tmp_path: Path) -> None:
    """``yes``, a date and ``1_000`` are strings to Cline (YAML 1.2), ``012``, ``0x1F`` and
    ``12.5`` numbers, ``yes`` no boolean: only the first three skills are listed."""
    root = tmp_path / "p"
    _write(root, "s1", "---\nname: yes\n---\nBody.\n")
    _write(root, "s2", "---\nname: d2\ndescription: 2024-01-01\n---\nBody.\n")
    _write(root, "s3", "---\nname: d3\ndescription: 1_000\n---\nBody.\n")
    _write(root, "s4", "---\nname: 012\n---\nBody.\n")
    _write(root, "s5", "---\nname: 0x1F\n---\nBody.\n")
    _write(root, "s6", "---\nname: d6\ndescription: 12.5\n---\nBody.\n")
    _write(root, "s7", "---\nname: d7\ndisabled: yes\n---\nBody.\n")
    listing = _identical([SourceSpec(str(root), "project")])
    names = listing.removeprefix("Available skills: ").removesuffix(".").split(", ")
    assert sorted(names) == ["d2", "d3", "yes"]


@needs_agent("cline")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("cline")
def test_all_four_catalogs_together(shared_data: Path) -> None:
    root = shared_data / "catalogs"
    listing = _identical([SourceSpec(str(root), "project")])
    assert listing.count(", ") + 1 >= 200
