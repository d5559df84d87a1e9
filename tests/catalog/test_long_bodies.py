"""Bodies past ``INLINE_BODY_CHARS`` stay in their files: a catalog keeps where each lies,
reads it back exactly when asked, lists the skill as it would with the body in memory, and
refuses a body that changed since it was loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench._errors import InputError
from skillbench.catalog import INLINE_BODY_CHARS, BodyFile, load_catalog
from skillbench.listing import render_listing

FRONT = "---\nname: {name}\ndescription: Check a release.\n---\n"
"""Four lines: the body starts on line 5."""


def _body(chars: int) -> str:
    """``chars`` characters of CRLF lines with non-ASCII text and a U+2028 line break, so a
    character offset and a byte offset differ."""
    unit = "Vérifier l'état\u2028du dépôt.\r\n"
    return (unit * (chars // len(unit) + 1))[:chars]


def _write(root: Path, name: str, text: str) -> Path:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8", newline="")
    return path


@pytest.mark.parametrize("chars", [INLINE_BODY_CHARS, INLINE_BODY_CHARS + 1, 3_000_000])
def test_a_body_reads_back_exactly_in_memory_or_from_its_file(tmp_path: Path, chars: int) -> None:
    body = _body(chars)
    path = _write(tmp_path, "release", FRONT.format(name="release") + body)
    (skill,) = load_catalog([str(tmp_path)]).skills
    assert skill.read_body() == body
    assert skill.body_chars == chars
    if chars > INLINE_BODY_CHARS:
        assert isinstance(skill.body, BodyFile)
        assert (skill.body.path, skill.body.line) == (str(path), 5)
    else:
        assert skill.body == body


def test_a_skill_without_description_is_listed_alike_whatever_its_body_size(
    tmp_path: Path,
) -> None:
    head = "# Deploy the site\n\nPush the build to the CDN and purge the cache.\n\n"
    for name, filler in (("small", 10), ("large", INLINE_BODY_CHARS)):
        _write(tmp_path, name, f"---\nname: {name}\n---\n{head}" + "Filler line.\n" * filler)
    skills = {s.name: s for s in load_catalog([str(tmp_path)]).skills}
    assert isinstance(skills["large"].body, BodyFile) and isinstance(skills["small"].body, str)
    # The loader's fallback: the first paragraph after the first heading.
    for skill in skills.values():
        assert skill.description == "Push the build to the CDN and purge the cache."
    # Claude Code's: the body's first non-empty line, without its '#'.
    listing = render_listing(list(skills.values()), profile="claude-code", ordering="alpha")
    assert listing.text.endswith("\n- large: Deploy the site\n- small: Deploy the site")


def test_a_body_changed_or_removed_after_loading_is_refused(tmp_path: Path) -> None:
    body = _body(INLINE_BODY_CHARS * 2)
    path = _write(tmp_path, "release", FRONT.format(name="release") + body)
    (skill,) = load_catalog([str(tmp_path)]).skills
    middle = len(body) // 2
    changed = body[:middle] + ("x" if body[middle] != "x" else "y") + body[middle + 1 :]
    path.write_text(FRONT.format(name="release") + changed, encoding="utf-8", newline="")
    with pytest.raises(InputError) as caught:
        skill.read_body()
    assert str(path) in str(caught.value) and "changed since the catalog was loaded" in str(
        caught.value
    )
    path.unlink()
    with pytest.raises(InputError) as gone:
        skill.read_body()
    assert str(path) in str(gone.value)
