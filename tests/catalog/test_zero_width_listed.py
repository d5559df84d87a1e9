"""A zero-width space ending a description is listed as read: agents trim with JavaScript's
or Rust's whitespace set, which does not hold U+200B (Gemini CLI 0.61.0 sent
``∑ \u200b`` for ``description: a ∑ \u200b``, by capture)."""

from __future__ import annotations

from pathlib import Path

from skillbench.catalog import load_catalog
from skillbench.catalog._precedence import CODEBOT


def test_zero_width_space_is_kept_in_the_listed_text(tmp_path: Path) -> None:
    (tmp_path / "z").mkdir()
    (tmp_path / "z" / "SKILL.md").write_text(
        "---\nname: z\ndescription: a ∑ \u200b\n---\nBody.\n", encoding="utf-8"
    )
    (skill,) = load_catalog([f"project={tmp_path}"], profile=CODEBOT).skills
    assert skill.description == "a ∑"
    assert skill.listed["description"] == "a ∑ \u200b"


def test_a_control_character_still_keeps_the_listed_text_out(tmp_path: Path) -> None:
    (tmp_path / "z").mkdir()
    (tmp_path / "z" / "SKILL.md").write_text(
        '---\nname: z\ndescription: "a \\u0007 b \\u200b"\n---\nBody.\n', encoding="utf-8"
    )
    (skill,) = load_catalog([f"project={tmp_path}"], profile=CODEBOT).skills
    assert skill.description == "a b"
    assert "description" not in skill.listed
