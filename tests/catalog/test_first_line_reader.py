"""The ``yaml-then-first-line`` reader, on the shapes OpenHarness 0.1.9 was captured listing.

Each expected name and description was read off a capture of ``oh -p`` with the file in
``~/.openharness/skills/<folder>/SKILL.md`` (see docs/profiles/openharness.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.catalog import SourceSpec, load_catalog


@pytest.mark.parametrize(
    ("folder", "data", "name", "description"),
    [
        ("plain", b"---\nname: plain\ndescription: '  Padded.  '\n---\n", "plain", "Padded."),
        ("other", b"---\nname: beta-x\ndescription: |\n  One\n  two\n---\n", "beta-x", "One\ntwo"),
        ("nodesc", b"---\nname: nodesc\n---\n# Title\n\nBody.\n", "nodesc", "name: nodesc"),
        ("num", b"---\nname: num\ndescription: 12.50\n---\nBody.\n", "num", "name: num"),
        ("crlf", b'---\r\nname: crlf\r\ndescription: "CR\r\n  LF"\r\n---\r\n', "crlf", "CR LF"),
        ("head", b"# Heading Name\n\n" + b"x" * 300 + b"\n", "Heading Name", "x" * 200),
        ("open", b"---\nname: open\ndescription: never closed\n", "open", "name: open"),
        ("empty", b"---\nname: empty\ndescription: ''\n---\n", "empty", "name: empty"),
        ("bare", b"---\n---\n## Only\n", "bare", "Skill: bare"),
    ],
)
def test_name_and_description(
    tmp_path: Path, folder: str, data: bytes, name: str, description: str
) -> None:
    (tmp_path / folder).mkdir()
    (tmp_path / folder / "SKILL.md").write_bytes(data)
    catalog = load_catalog([SourceSpec(str(tmp_path), "user")], profile="openharness")
    (skill,) = catalog.skills
    assert skill.name == name
    listed = skill.listed.get("description", skill.description)
    assert listed.strip() == description


def test_a_skill_whose_names_were_all_taken_is_left_out(tmp_path: Path) -> None:
    """``a`` answers to ``a`` only; ``z`` (named ``a``) takes it. ``b`` (named ``c``) keeps
    its folder's name although ``c`` takes the name ``c``."""
    for folder, name in (("a", "a"), ("b", "c"), ("c", "c"), ("z", "a")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: D.\n---\n")
    catalog = load_catalog([SourceSpec(str(tmp_path), "user")], profile="openharness")
    assert sorted(s.path.split("/")[-2] for s in catalog.skills) == ["b", "c", "z"]  # type: ignore[union-attr]
    (override,) = catalog.overrides
    assert override.loser.name == "a" and override.winner.path.endswith("z/SKILL.md")  # type: ignore[union-attr]
