"""Codex live (0.169.0 and 0.171.0): how it reads a SKILL.md's front matter, names and bytes.

Each test lays skills out where Codex looks, captures one turn and requires the codex
profile of that release to render the same block byte for byte; the expected lines are what
Codex listed in the captures that found these rules, written by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.catalog import SourceSpec
from tests.support.agents import identical_at, needs_agent

RELEASES = [
    pytest.param("0.169.0", marks=needs_agent("codex")),
    pytest.param("0.171.0", marks=needs_agent("codex", "0.171.0")),
]


def _layout(root: Path, files: dict[str, str | bytes]) -> Path:
    for folder, text in files.items():
        (root / folder).mkdir(parents=True)
        data = text.encode() if isinstance(text, str) else text
        (root / folder / "SKILL.md").write_bytes(data)
    return root


def _entries(listing: str) -> list[str]:
    """The user's entries: lines of the listing under the folder's root ``r0``."""
    return [line for line in listing.splitlines() if "(file: r0/" in line]


def _skill(name: str, description: str) -> str:
    return f"---\nname: {name}\n{description}---\nBody.\n"


@pytest.mark.parametrize("version", RELEASES)
def test_values_as_written_and_requoted(tmp_path: Path, version: str) -> None:
    skills = _layout(
        tmp_path / "s",
        {
            "number": _skill("number", "description: 12.50\n"),
            "boolean": _skill("boolean", "description: yes\n"),
            "flow": _skill("flow", "description: [trace trace —, retry\n"),
            "comment": _skill("comment", "description: {{y}} {{y}} migrate #shard lint\n"),
            "mapping": _skill("mapping", "description: {a: b}\n"),
            "list": _skill("list", "description: [a, b]\n"),
            "percent": _skill("percent", "description: %s review\n"),
            "bad-meta": _skill("bad-meta", "description: x\nmetadata: [x\n"),
            "upper-key": _skill("upper-key", "Description: case matters\n"),
        },
    )
    result = identical_at("codex", version, [SourceSpec(str(skills), "plugin")])
    assert _entries(result.listing) == [
        "- boolean: yes (file: r0/boolean/SKILL.md)",
        "- comment: {{y}} {{y}} migrate (file: r0/comment/SKILL.md)",
        "- flow: [trace trace —, retry (file: r0/flow/SKILL.md)",
        "- mapping: {a: b} (file: r0/mapping/SKILL.md)",
        "- number: 12.50 (file: r0/number/SKILL.md)",
    ]


@pytest.mark.parametrize("version", RELEASES)
def test_spaces_invisible_characters_and_a_bom(tmp_path: Path, version: str) -> None:
    skills = _layout(
        tmp_path / "s",
        {
            "spaced": _skill('"f101 audit  two"', 'description: "triage audit"\n'),
            "unicode": _skill("unicode", "description: tokens héllo 🚀 ∑ \u200b\n"),
            "bom": b"\xef\xbb\xbf" + _skill("bom", "description: triage\n").encode(),
        },
    )
    result = identical_at("codex", version, [SourceSpec(str(skills), "plugin")])
    assert _entries(result.listing) == [
        "- f101 audit two: triage audit (file: r0/spaced/SKILL.md)",
        "- unicode: tokens héllo 🚀 ∑ \u200b (file: r0/unicode/SKILL.md)",
    ]


@pytest.mark.parametrize("version", RELEASES)
def test_a_folder_whose_only_skill_failed_has_no_root(tmp_path: Path, version: str) -> None:
    skills = _layout(tmp_path / "s", {"quote": _skill("quote", "description: 'unclosed\n")})
    result = identical_at("codex", version, [SourceSpec(str(skills), "plugin")])
    roots = [line for line in result.listing.splitlines() if line.startswith("- `r")]
    assert len(roots) == 1 and roots[0].endswith("/.codex/skills/.system`")
