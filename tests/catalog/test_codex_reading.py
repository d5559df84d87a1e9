"""How Codex reads a SKILL.md (0.169.0 and 0.171.0): the values expected here are what Codex
listed for the same files in captures, written by hand; Claude Code's reading of the same
files stays as it was (it shares the catalog's readers but not these rules).

- scalars are listed as written (``12.50``, ``yes``); null is no description;
- front matter that fails (broken YAML, or a list or mapping where text is due) is read
  again with each top-level value quoted that holds ``: `` or starts a flow collection or a
  reserved character and is not YAML on its own, its ``#`` comment cut off;
- whitespace runs in a name become one space; a zero-width space is kept;
- a file starting with a byte-order mark has no front matter, so it is not loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench._sanitize import clean_line, name_problem
from skillbench.catalog import load_catalog, requote
from skillbench.listing import render_listing


def _catalog(tmp_path: Path, profile: str, **files: str | bytes):
    for folder, text in files.items():
        (tmp_path / folder).mkdir(parents=True)
        data = text.encode() if isinstance(text, str) else text
        (tmp_path / folder / "SKILL.md").write_bytes(data)
    return load_catalog([f"project={tmp_path}"], profile=profile)


def _description(tmp_path: Path, front: str, profile: str = "codex") -> str | None:
    catalog = _catalog(tmp_path, profile, s=f"---\nname: s\n{front}---\nBody\n")
    return catalog.skills[0].description if catalog.skills else None


@pytest.mark.parametrize(
    ("front", "listed"),
    [
        ("description: 12.50\n", "12.50"),
        ("description: yes\n", "yes"),
        ("description: 2024-01-02\n", "2024-01-02"),
        ("description: !!float 12.50\n", "12.50"),
        ("description: [trace trace —, retry\n", "[trace trace —, retry"),
        ("description: [a, b  #c  \n", "[a, b"),
        ("description: {{y}} {{y}} migrate #shard lint\n", "{{y}} {{y}} migrate"),
        ("description: {a: b}\n", "{a: b}"),
        ('description: [a "b" \\c\n', '[a "b" \\c'),
        ("description: @x #c\n", "@x"),
        ("description: &a b: c\n", "&a b: c"),
        ("description: x #c\nother: [x\n", "x"),
        ("description: a\nmetadata:\n", "a"),
        ("description: tokens héllo ∑ \u200b\n", "tokens héllo ∑ \u200b"),
    ],
)
def test_description_as_codex_lists_it(tmp_path: Path, front: str, listed: str) -> None:
    assert _description(tmp_path, front) == listed


@pytest.mark.parametrize(
    "front",
    [
        "description: null\n",
        "description: [a, b]\n",
        "description: {a}\n",
        "description: {{y}}\n",
        "description: %s review\n",
        "description: 'unclosed\n",
        'description: "q" x: y\n',
        "description: - a\n",
        "description: [a, b\n  more\n",
        "description: x\nmetadata: [x\n",
        "description: x\nmetadata: x\n",
        "description: a\ndescription: b\n",
        "Description: case matters\n",
    ],
)
def test_front_matter_codex_does_not_load(tmp_path: Path, front: str) -> None:
    catalog = _catalog(tmp_path, "codex", s=f"---\nname: s\n{front}---\nBody\n")
    assert catalog.skills == ()
    assert any(d.severity == "error" for d in catalog.diagnostics)


def test_requote_quotes_only_what_cannot_stand() -> None:
    lines = [
        "name: [n",
        "description: a: b # c",
        "tags: [a, b]",
        "other: 'x: y'",
        "  nested: [x",
        "plain: words #c",
    ]
    assert requote(lines) == [
        'name: "[n"',
        'description: "a: b"',
        "tags: [a, b]",
        "other: 'x: y'",
        "  nested: [x",
        "plain: words #c",
    ]


def test_claude_code_reads_the_same_files_as_before(tmp_path: Path) -> None:
    assert _description(tmp_path / "a", "description: 12.50\n", "claude-code") == "12.5"
    assert _description(tmp_path / "b", "description: x \u200b\n", "claude-code") == "x"
    assert _description(tmp_path / "c", "description: [a, b\n", "claude-code") == "[a, b"


def test_name_whitespace_runs_are_one_space_for_codex_only(tmp_path: Path) -> None:
    front = '---\nname: "f101 audit  two\\tthree"\ndescription: d\n---\n'
    codex = _catalog(tmp_path / "x", "codex", f=front)
    assert [s.name for s in codex.skills] == ["f101 audit two three"]
    claude = _catalog(tmp_path / "c", "claude-code", f=front.replace("\\t", " "))
    assert [s.name for s in claude.skills] == ["f101 audit  two three"]


def test_a_zero_width_space_in_a_name_is_kept_for_codex(tmp_path: Path) -> None:
    codex = _catalog(tmp_path, "codex", f='---\nname: "i06\\u200b"\ndescription: zw name\n---\n')
    assert [s.name for s in codex.skills] == ["i06\u200b"]
    assert name_problem("i06\u200b", "listed") is not None


def test_a_byte_order_mark_hides_the_front_matter_from_codex(tmp_path: Path) -> None:
    text = "\ufeff---\nname: f200-bom\ndescription: triage\n---\n"
    codex = _catalog(tmp_path / "x", "codex", f=text.encode())
    assert codex.skills == ()
    assert any("byte-order mark" in d.reason for d in codex.diagnostics)
    claude = _catalog(tmp_path / "c", "claude-code", f=text.encode())
    assert [s.description for s in claude.skills] == ["triage"]


def test_format_characters_kept_but_not_bidi_tags_or_controls() -> None:
    text = "a \u200b b\u2060c \u202e d \U000e0041 e \x1b[31m f \x01"
    assert clean_line(text, "format-kept").text == "a \u200b b\u2060c d e f"
    assert clean_line(text).text == "a bc d e f"


def test_codex_line_of_a_requoted_and_spaced_skill(tmp_path: Path) -> None:
    catalog = _catalog(
        tmp_path,
        "codex",
        n='---\nname: "f223 parse  two"\ndescription: "triage lint cache"\n---\n',
        u="---\nname: f206-unclosed-flow\ndescription: [trace trace —, retry\n---\n",
        z="---\nname: z\ndescription: ∑ \u200b\n---\n",
    )
    listing = render_listing(
        list(catalog.skills), profile="codex", options={"context_window": None, "snapshot": "none"}
    )
    entries = listing.text.split("### Available skills\n", 1)[1].splitlines()
    assert entries == [
        "- f206-unclosed-flow: [trace trace —, retry (file: r0/u/SKILL.md)",
        "- f223 parse two: triage lint cache (file: r0/n/SKILL.md)",
        "- z: ∑ \u200b (file: r0/z/SKILL.md)",
        "</skills_instructions>",
    ]
