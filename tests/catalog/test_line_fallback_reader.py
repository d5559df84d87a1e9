"""The ``yaml-then-lines`` front matter reader (Gemini CLI 0.61.0's): expected values are
what the agent listed for the same files in a capture, written here by hand."""

from __future__ import annotations

import pytest

from skillbench._sanitize import name_problem
from skillbench.catalog import Diagnostic
from skillbench.catalog._frontmatter import FRONT_MATTER_READERS

READ = FRONT_MATTER_READERS.get("yaml-then-lines")


@pytest.mark.parametrize(
    ("front", "description"),
    [
        ("description: |+\n  one\n  two\n\n", "one\ntwo\n"),
        ("description: |\n  one\n  two\n", "one\ntwo\n"),
        ("description: >-\n  one\n  two\n", "one two"),
        ("description: [a, b\n", "[a, b"),
        ("description: use when: foo # comment\n", "use when: foo # comment"),
        ("description: Use this: when x: y\n", "Use this: when x: y"),
        ("description: 'it''s: #x'\n", "it's: #x"),
        ("description:\n", ""),
    ],
)
def test_description_as_listed(front: str, description: str) -> None:
    problems: list[Diagnostic] = []
    doc = READ("x/SKILL.md", f"---\nname: s\n{front}---\nBody\n", problems)
    assert doc is not None and doc.meta is not None
    assert doc.meta["description"] == description
    assert doc.body == "Body\n"


def test_repeated_key_read_line_by_line() -> None:
    """A repeated key is a js-yaml error: the line reader takes the last ``name``."""
    doc = READ("x/SKILL.md", "---\nname: a\nname: b\ndescription: d\n---\n", [])
    assert doc is not None and doc.meta == {"name": "b", "description": "d"}


@pytest.mark.parametrize(
    "text",
    ["---\ndescription: no name\n---\nB\n", "---\nname: n\n---\nB\n", "name: n\ndescription: d\n"],
)
def test_not_loaded_without_both_fields(text: str) -> None:
    problems: list[Diagnostic] = []
    assert READ("x/SKILL.md", text, problems) is None
    assert problems and problems[0].severity == "error"


PAIRS = FRONT_MATTER_READERS.get("yaml-then-pairs")


@pytest.mark.parametrize(
    ("front", "description"),
    [
        ("description: [a, b\n", "[a, b"),
        ("description: use when: foo # comment\n", "use when: foo # comment"),
        ("description: plain\n", "plain"),
    ],
)
def test_pairs_description_as_listed(front: str, description: str) -> None:
    """Qwen Code 0.24.4 listed these descriptions (capture)."""
    doc = PAIRS("x/SKILL.md", f"---\nname: s\n{front}---\nBody\n", [])
    assert doc is not None and doc.meta is not None
    assert doc.meta["description"] == description


@pytest.mark.parametrize("front", ["name: s\ndescription:\n", "description: d\n"])
def test_pairs_not_loaded_without_both(front: str) -> None:
    problems: list[Diagnostic] = []
    assert PAIRS("x/SKILL.md", f"---\n{front}---\nBody\n", problems) is None
    assert problems


@pytest.mark.parametrize(
    ("name", "accepted"),
    [
        ("a.b.c", True),
        ("ns:tool", True),
        ("UpperCase", True),
        ("ünï", True),
        ("x" * 200, True),
        ("under_score", True),
        ("has space", False),
        ("a/b", False),
        ("a+b", False),
    ],
)
def test_word_names(name: str, accepted: bool) -> None:
    """Qwen Code 0.24.4 listed the accepted names and dropped the others (capture)."""
    assert (name_problem(name, "word") is None) is accepted
