"""The ``yaml-typed`` front-matter reader, the ``directory`` walk, lower-cased dedupe and a
listing of names on one line: the generic knobs Cline CLI's record is made of, checked
without the CLI. Expected values are written by hand from the rules each knob states."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillbench.agents import AGENTS, find_block, listing_entries
from skillbench.agents._listing_check import ListingEntry
from skillbench.agentspec import Locator
from skillbench.catalog import Diagnostic, SourceSpec, load_catalog
from skillbench.catalog._frontmatter import FRONT_MATTER_READERS
from skillbench.listing import render_listing

READ = FRONT_MATTER_READERS.get("yaml-typed")


def _read(text: str) -> tuple[dict[str, object] | None, str, list[Diagnostic]]:
    found: list[Diagnostic] = []
    doc = READ("SKILL.md", text, found)
    return (None, "", found) if doc is None else (doc.meta, doc.body, found)


@pytest.mark.parametrize(
    ("text", "meta", "body"),
    [
        ("---\nname: a\ndescription: d\n---\nBody\n", {"name": "a", "description": "d"}, "Body\n"),
        ("---\r\nname: a\r\n---\r\nBody", {"name": "a"}, "Body"),
        ("\ufeff---\nname: a\n---\nBody", {"name": "a"}, "Body"),
        ("---\nname: a\n---x\nBody", {"name": "a"}, "x\nBody"),
        ("---\n---\nBody\n", None, "---\n---\nBody\n"),
        ("# no front matter\n", None, "# no front matter\n"),
        ("---\nName: A\nnote: 1\n---\nBody", {}, "Body"),
        (
            "---\nname: a\ndisabled: true\n---\nB",
            {"name": "a", "disable-model-invocation": True},
            "B",
        ),
        (
            "---\nname: a\nenabled: false\n---\nB",
            {"name": "a", "disable-model-invocation": True},
            "B",
        ),
        ("---\nname: a\ndisabled: false\nenabled: 3\n---\nB", {"name": "a"}, "B"),
        ("---\nname: a\ndisable-model-invocation: true\n---\nB", {"name": "a"}, "B"),
        ('---\nname: "r\\uD83D\\uDE80"\n---\nB', {"name": "r\U0001f680"}, "B"),
        (
            "---\nname: yes\ndescription: 2024-01-01\n---\nB",
            {"name": "yes", "description": "2024-01-01"},
            "B",
        ),
        ("---\nname: a\ndescription: 1_000\n---\nB", {"name": "a", "description": "1_000"}, "B"),
    ],
)
def test_what_the_reader_keeps(text: str, meta: dict[str, object] | None, body: str) -> None:
    got, got_body, problems = _read(text)
    assert (got, got_body, problems) == (meta, body, [])


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("---\nname: a\n---\n  \n", "no instructions"),
        ("---\nname: a\ndescription: 12.5\n---\nB", "'description' is not a string"),
        ("---\nname: 7\n---\nB", "'name' is not a string"),
        ("---\nname: 0x1F\n---\nB", "'name' is not a string"),
        ("---\nname: a\ndisabled: yes\n---\nB", "'disabled' is not a boolean"),
        ("---\nname: a\ndisabled: yes please\n---\nB", "'disabled' is not a boolean"),
        ("---\nname: [a\n---\nB", "invalid YAML frontmatter"),
        ("---\nname: a\nname: b\n---\nB", "duplicate key"),
    ],
)
def test_what_keeps_a_file_out(text: str, why: str) -> None:
    meta, _, problems = _read(text)
    assert meta is None and len(problems) == 1 and why in problems[0].reason


def _skill(root: Path, folder: str, name: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text(f"---\nname: {name}\n---\nBody of {folder}.\n")


def test_cline_lists_names_in_directory_order_later_wins_in_place(tmp_path: Path) -> None:
    project, user = tmp_path / "project", tmp_path / "user"
    for folder in ("b-one", "a-two", "c-three"):
        _skill(project, folder, folder.upper() if folder == "a-two" else folder)
    _skill(project, "d-under", "a_two")
    _skill(user, "z", "a-two")
    sources = [SourceSpec(str(user), "user"), SourceSpec(str(project), "project")]
    catalog = load_catalog(sources, profile="cline")
    listed = [os.path.basename(os.path.dirname(s.path or "")) for s in catalog.skills]
    order = [f for f in os.listdir(project) if f != "d-under"]
    expected = ["z" if f == "a-two" else f for f in order]
    assert [f for f in listed if f != "d-under"] == expected
    assert "a_two" in catalog.names and "A-TWO" not in catalog.names
    text = render_listing(catalog.skills, profile="cline").text
    names = [("a-two" if f == "z" else f) for f in listed]
    names = ["a_two" if n == "d-under" else n for n in names]
    assert text == f"Available skills: {', '.join(names)}."
    assert listing_entries("cline", text) == [ListingEntry(n, "") for n in names]


def test_the_listing_is_found_at_the_end_of_a_tool_description() -> None:
    locator = Locator("tools", "Available skills: ", "")
    text = "Run a skill. Available skills: a.b, c."
    assert find_block([text], locator) == "Available skills: a.b, c."
    body = {
        "messages": [{"role": "system", "content": "Available skills: not this."}],
        "tools": [
            {"type": "function", "function": {"name": "x", "description": "None here."}},
            {"type": "function", "function": {"name": "skills", "description": text}},
        ],
    }
    assert AGENTS.get("cline").listing(body) == "Available skills: a.b, c."
