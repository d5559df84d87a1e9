"""Copilot CLI 1.0.102's names-only line past its budget, written by hand from captures."""

from __future__ import annotations

from skillbench._sanitize import name_problem, rule_name
from skillbench.catalog import Skill
from skillbench.listing import render_listing

PREFIX = "Additional skills available (invoke by name): "


def _render(count: int) -> tuple[str, dict[str, str]]:
    skills = [Skill(f"s{i:03d}-abcdef", "d", source="project") for i in range(count)]
    listing = render_listing(
        skills, profile="copilot-cli", ordering="given", budget=0, options={"snapshot": None}
    )
    line = listing.text.split("\n")[1]
    return line, {e.name: e.status for e in listing.entries}


def test_names_line_holds_5000_characters_then_counts_the_rest() -> None:
    """Eleven-character names joined by ``, ``: the prefix (46) and 381 names (381 × 11 +
    380 × 2 = 4,951) make 4,997; a 382nd would make 5,010, so 19 of 400 are only counted."""
    line, status = _render(400)
    names = ", ".join(f"s{i:03d}-abcdef" for i in range(381))
    assert line == PREFIX + names + "... and 19 more"
    assert status["s380-abcdef"] == "name_only" and status["s381-abcdef"] == "dropped"


def test_names_line_within_the_cap_has_no_count() -> None:
    line, status = _render(381)
    assert line == PREFIX + ", ".join(f"s{i:03d}-abcdef" for i in range(381))
    assert set(status.values()) == {"name_only"}


def test_ascii_words_name_rule() -> None:
    """Copilot CLI 1.0.102's names, by capture: whitespace runs as ``-``, then ASCII
    letters, digits, ``. _ : -`` from a letter or digit, at most 64 characters."""
    assert rule_name("a  b\tc", "ascii-words") == "a-b-c"
    assert rule_name("a  b", "listed") == "a  b"
    for good in ("Foo", "a-", "a--b", "b.", "a_b", "9:z", "x" * 64):
        assert name_problem(good, "ascii-words") is None, good
    for bad in ("-a", "_a", ".a", "a@b", "a/b", "aé", "y" * 65):
        assert name_problem(bad, "ascii-words") is not None, bad
