"""Qwen Code 0.24.4 live: the qwen-code profile's render equals the listing Qwen Code sends.

Each test lays skills out where Qwen Code looks, runs one offline turn against the loopback
recorder (OpenAI chat completions) and renders the same installed skills with the qwen-code
profile (the capture's snapshot for the bundled skills), byte for byte. The expected
elements are written out by hand from Qwen Code's format: the frontmatter text as YAML reads
it (line breaks kept), XML-escaped, `` — when_to_use`` joined, the level in parentheses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity, capture_agent
from skillbench.catalog import SourceSpec
from tests.support.agents import needs_agent
from tests.support.skill_files import render_skills, write_skills

CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _write(root: Path, name: str, frontmatter: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(f"---\nname: {name}\n{frontmatter}---\nBody.\n")


def _identical(sources: list[SourceSpec]) -> str:
    result = agent_fidelity("qwen-code", sources)
    assert result.version == "0.24.4"
    assert result.identical, "\n".join(result.lines[:20])
    assert not result.notes
    return result.listing


def _element(name: str, text: str, level: str) -> str:
    return (
        f"<skill>\n<name>\n{name}\n</name>\n<description>\n{text} ({level})\n</description>\n"
        f"<location>\n{level}\n</location>\n</skill>"
    )


@needs_agent("qwen-code")
def test_two_skills_project_and_user(tmp_path: Path) -> None:
    project, user = tmp_path / "p", tmp_path / "u"
    _write(
        project,
        "db-migrate",
        'description: |\n  Migrate the "main" database.\n  Keeps <backups> & logs.\n'
        "when_to_use: When asked\n",
    )
    _write(user, "zeta-tool", "description: Zeta's things.\n")
    _write(user, "fold-end", "description: >\n  Folded\n  at the end.\n")
    listing = _identical([SourceSpec(str(project), "project"), SourceSpec(str(user), "user")])
    assert _element("fold-end", "Folded at the end.\n", "user") in listing
    db = "Migrate the &quot;main&quot; database.\nKeeps &lt;backups&gt; &amp; logs.\n — When asked"
    assert _element("db-migrate", db, "project") in listing
    assert _element("zeta-tool", "Zeta&apos;s things.", "user") in listing
    assert listing.startswith("<system-reminder>\n") and listing.endswith("</system-reminder>")
    assert listing.index("<name>\ndb-migrate\n") < listing.index("<name>\nzeta-tool\n")


@needs_agent("qwen-code")
def test_past_8000_characters_user_skills_keep_their_first_line(tmp_path: Path) -> None:
    """30 skills of ~330 characters each pass 8,000: each keeps ``Line one N.``, no
    when_to_use; the bundled skills keep their whole text."""
    skills = tmp_path / "s"
    for i in range(30):
        text = f"description: |\n  Line one {i}.\n  {'x' * 300}\nwhen_to_use: Now\n"
        _write(skills, f"tool-{i:02d}", text)
    listing = _identical([SourceSpec(str(skills), "project")])
    for i in range(30):
        assert _element(f"tool-{i:02d}", f"Line one {i}.", "project") in listing
    assert "x" * 300 not in listing


@needs_agent("qwen-code")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("qwen-code")
def test_all_four_catalogs_together(shared_data: Path) -> None:
    """Every skill but those with ``disable-model-invocation: true`` is listed (224 of
    the 248), descriptions cut to their first line."""
    root = shared_data / "catalogs"
    files = list(root.rglob("SKILL.md"))
    hidden = [f for f in files if "\ndisable-model-invocation: true\n" in f.read_text()]
    listing = _identical([SourceSpec(str(root), "project")])
    assert listing.count("<location>\nproject\n</location>") == len(files) - len(hidden)


@needs_agent("qwen-code")
def test_the_snapshot_holds_the_bundled_skills_and_the_skill_tool(tmp_path: Path) -> None:
    skills = tmp_path / "s"
    _write(skills, "pdf-tools", "description: PDF things.\n")
    cap = capture_agent("qwen-code", [f"project={skills}"], workdir=tmp_path / "w")
    assert cap.snapshot is not None and len(cap.snapshot.builtin_skills) >= 10
    assert "pdf-tools" not in {b.name for b in cap.snapshot.builtin_skills}
    assert cap.listing.count("<location>\nbundled\n</location>") == len(cap.snapshot.builtin_skills)
    assert any(t["function"]["name"] == "skill" for t in cap.tools)
    assert cap.requests[0].path == "/v1/chat/completions"


@needs_agent("qwen-code")
def test_front_matter_yaml_then_key_value_lines(tmp_path: Path) -> None:
    """YAML the agent rejects is read as top-level ``key: value`` lines (``[a, b`` and a
    value with ``: `` listed as written); a skill with an empty or missing ``name`` or
    ``description`` is not listed."""
    files = {
        "unclosed": "name: unclosed\ndescription: [a, b\n",
        "colons": "name: colons\ndescription: use when: foo # comment\n",
        "empty": "name: empty\ndescription:\n",
        "nameless": "description: No name.\n",
    }
    for folder, front in files.items():
        (tmp_path / "s" / folder).mkdir(parents=True)
        (tmp_path / "s" / folder / "SKILL.md").write_text(f"---\n{front}---\nBody\n")
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    assert "<description>\n[a, b (project)\n</description>" in listing
    assert "<description>\nuse when: foo # comment (project)\n</description>" in listing
    assert "\nempty\n" not in listing and "No name." not in listing


@needs_agent("qwen-code")
def test_names_letters_digits_and_punctuation(tmp_path: Path) -> None:
    """Names of letters (any case, any script), digits, ``_ : . -`` of any length are
    listed; one with a space or a ``/`` is not."""
    names = {"dots": "a.b.c", "colon": "ns:tool", "upper": "UpperCase", "long": "x" * 200}
    names |= {"space": "has space", "slash": "a/b"}
    for folder, name in names.items():
        (tmp_path / "s" / folder).mkdir(parents=True)
        (tmp_path / "s" / folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Named {folder}.\n---\nBody\n"
        )
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    for name in ("a.b.c", "ns:tool", "UpperCase", "x" * 200):
        assert f"<name>\n{name}\n</name>" in listing
    assert "Named space." not in listing and "Named slash." not in listing


FUZZ_SHAPES: dict[str, str | bytes] = {
    "q1-keep": "---\nname: q1-keep\ndescription: >+\n  a'b\n  audit\n\n---\nBody.\n",
    "q2-list": "---\nname: q2-list\ndescription:\n  - shard schema\n  - build\n---\nBody.\n",
    "q3-list-bad": '---\nname: q3-list-bad\ndescription:\n  - "q" render\n  - trace\n---\nB.\n',
    "q4-number": "---\nname: q4-number\ndescription: 12.50\n---\nBody.\n",
    "q5-zero-width": "---\nname: q5-zero-width\ndescription: a ∑ \u200b\n---\nBody.\n",
    "q6-repeated": '---\nname: q6-repeated\ndescription: one\ndescription: "two"\n---\nB.\n',
    "q7-mapping": "---\nname: q7-mapping\ndescription:\n  a: 1\n---\nBody.\n",
    "q8-crlf": "---\r\nname: q8-crlf\r\ndescription: |+\r\n  x\r\n\r\n---\r\nB.\r\n",
}
"""Shapes the differential tester found listed otherwise than skillbench rendered them."""


def test_fuzz_shapes_render_as_qwen_lists_them(tmp_path: Path) -> None:
    """Qwen Code 0.24.4, captured: the front matter is read without the line break that
    ends it (a ``>+`` block keeps one newline), a list is its items joined by ``,`` (also
    from the key-value fallback, which keeps a ``"q" render`` item as written), a number
    as JavaScript writes it, a repeated key through the fallback (the later value), a
    closing zero-width space kept; a mapping is not listed."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    elements = [
        _element("q1-keep", "a&apos;b audit\n", "user"),
        _element("q2-list", "shard schema,build", "user"),
        _element("q3-list-bad", "&quot;q&quot; render,trace", "user"),
        _element("q4-number", "12.5", "user"),
        _element("q5-zero-width", "a ∑ \u200b", "user"),
        _element("q6-repeated", "two", "user"),
        _element("q8-crlf", "x\n", "user"),
    ]
    listing = render_skills("qwen-code", root)
    assert listing.split("<available_skills>\n", 1)[1] == (
        "\n".join(elements) + "\n</available_skills>\n</system-reminder>"
    )


@needs_agent("qwen-code")
def test_fuzz_shapes_live(tmp_path: Path) -> None:
    """The same shapes through the real agent: byte-identical."""
    root = write_skills(tmp_path / "s", FUZZ_SHAPES)
    listing = _identical([SourceSpec(str(root), "user")])
    assert "shard schema,build (user)" in listing
    assert "q7-mapping" not in listing
