"""GitHub Copilot CLI 1.0.102 live: the copilot-cli profile's render equals what it sends.

Copilot CLI is closed source: its rules were learnt from captures, and these tests hold
the profile to fresh ones. Each lays skills out where the CLI looks, runs one offline turn
in its bring-your-own-key mode against the loopback recorder (Anthropic Messages) and
renders the same installed skills (the capture's snapshot for its built-in skills), byte
for byte.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity, capture_agent
from skillbench.catalog import SourceSpec
from tests.support.agents import needs_agent

CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")


def _skill(root: Path, name: str, description: str, extra: str = "") -> None:
    (root / name).mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {description}\n{extra}---\nBody of {name}.\n"
    (root / name / "SKILL.md").write_text(text)


def _identical(sources: list[SourceSpec]) -> str:
    result = agent_fidelity("copilot-cli", sources)
    assert result.version == "1.0.102"
    assert result.identical, "\n".join(result.lines[:20])
    assert not result.notes
    return result.listing


def _full(listing: str) -> list[str]:
    return re.findall(r"<skill>\n  <name>(.*?)</name>", listing)


@needs_agent("copilot-cli")
def test_two_skills(tmp_path: Path) -> None:
    """Sorted by name, escaped, located by scope, the built-ins after them."""
    _skill(tmp_path / "s", "zeta-tool", "Zeta <things> & 'quotes'.")
    _skill(tmp_path / "s", "db-migrate", "Migrate.")
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    assert listing.startswith(
        "<available_skills>\n<skill>\n  <name>db-migrate</name>\n"
        "  <description>Migrate.</description>\n  <location>project</location>\n</skill>\n"
        "<skill>\n  <name>zeta-tool</name>\n"
        "  <description>Zeta &lt;things&gt; &amp; &apos;quotes&apos;.</description>\n"
    )


@needs_agent("copilot-cli")
def test_rules_learnt_by_capture(tmp_path: Path) -> None:
    """User skills after project ones; a 1,025-character description is not loaded, 1,024
    is; ``disable-model-invocation`` is honoured; a block scalar keeps its line break."""
    project, user = tmp_path / "p", tmp_path / "u"
    _skill(project, "d1024", "y" * 1024)
    _skill(project, "d1025", "y" * 1025)
    _skill(project, "manual", "Manual.", "disable-model-invocation: true\n")
    _skill(project, "blocky", "|-\n  line one\n  line two")
    _skill(user, "a-user", "User.")
    listing = _identical([SourceSpec(str(project), "project"), SourceSpec(str(user), "user")])
    assert _full(listing)[:3] == ["blocky", "d1024", "a-user"]
    assert "d1025" not in listing and "manual" not in listing
    assert "<description>line one\nline two</description>" in listing


@needs_agent("copilot-cli")
def test_budget_boundary(tmp_path: Path) -> None:
    """15,000 characters, each element counting itself and a newline. 74 elements of 200
    characters (4-character names, 103-character descriptions) use 74 × 201 = 14,874; a
    75th of 125 characters (a 28-character description) brings it to exactly 15,000 and
    fits; a 76th never does, so it and the built-ins are named on one line."""
    for i in range(74):
        _skill(tmp_path / "s", f"s{i:03d}", "abcdefghij" * 10 + "abc")
    _skill(tmp_path / "s", "s074", "a" * 28)
    _skill(tmp_path / "s", "s075", "b")
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    assert len(_full(listing)) == 75
    assert "\nAdditional skills available (invoke by name): s075, " in listing


@needs_agent("copilot-cli")
def test_one_more_character_moves_it_to_the_names(tmp_path: Path) -> None:
    for i in range(74):
        _skill(tmp_path / "s", f"s{i:03d}", "abcdefghij" * 10 + "abc")
    _skill(tmp_path / "s", "s074", "a" * 29)
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    assert len(_full(listing)) == 74
    assert "(invoke by name): s074, " in listing


@needs_agent("copilot-cli")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("copilot-cli")
def test_all_shared_catalogs_together(shared_data: Path) -> None:
    sources = [SourceSpec(str(shared_data / "catalogs" / n), "project") for n in CATALOGS]
    listing = _identical(sources)
    assert "Additional skills available (invoke by name): " in listing


@needs_agent("copilot-cli")
def test_capture_reads_the_builtins_and_the_skill_tool(tmp_path: Path) -> None:
    _skill(tmp_path / "s", "pdf-tools", "PDF things.")
    cap = capture_agent("copilot-cli", [f"project={tmp_path / 's'}"], workdir=tmp_path / "w")
    assert cap.snapshot is not None and cap.snapshot.builtin_skills
    assert any(t.get("name") == "skill" for t in cap.tools)
    assert cap.requests[0].path == "/v1/messages"


@needs_agent("copilot-cli")
def test_names_line_cap(tmp_path: Path) -> None:
    """Past the budget the names line, prefix included, takes names while it stays within
    5,000 characters, then ends ``... and N more``. Thirteen 1,000-character elements fill
    the budget; the line then names big13, big14, a 13-character name and 379 of 700
    eleven-character names: 46 + 10 + 13 + 4,169 + 381 × 2 = exactly 5,000."""
    for i in range(15):
        _skill(tmp_path / "s", f"big{i:02d}", "x" * 1000)
    _skill(tmp_path / "s", "c" + "x" * 12, "d")
    for i in range(700):
        _skill(tmp_path / "s", f"n{i:04d}-aaaaa", "d")
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    line = next(x for x in listing.split("\n") if x.startswith("Additional skills"))
    assert line.endswith(", n0378-aaaaa... and 323 more")
    assert len(line) == 5_000 + len("... and 323 more")


@needs_agent("copilot-cli")
def test_names_rule(tmp_path: Path) -> None:
    """Whitespace runs become ``-``; ASCII letters, digits, ``.``, ``_``, ``:`` and ``-``
    starting with a letter or digit are listed as written; anything else, a name over 64
    characters, is not loaded. Names differing in case or in ``_`` against ``-`` are
    distinct skills; ``a b`` (now ``a-b``) meets the ``a-b`` found after it, and wins."""
    names = ["a  b", "a-b", "a_b", "Foo", "foo", "b.", "9:z", "-a", "_a", "a@b", "aé"]
    names += ["x" * 64, "y" * 65]
    for i, name in enumerate(names):
        folder = tmp_path / "s" / f"f{i:02d}"
        folder.mkdir(parents=True)
        text = f'---\nname: "{name}"\ndescription: desc-{i:02d}\n---\nBody.\n'
        (folder / "SKILL.md").write_text(text)
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    listed = re.findall(r"<name>(.*?)</name>\n  <description>(desc-\d\d)<", listing)
    assert listed == [
        ("9:z", "desc-06"),
        ("Foo", "desc-03"),
        ("a-b", "desc-00"),
        ("a_b", "desc-02"),
        ("b.", "desc-05"),
        ("foo", "desc-04"),
        ("x" * 64, "desc-11"),
    ]


@needs_agent("copilot-cli")
def test_block_scalars_as_parsed(tmp_path: Path) -> None:
    """Descriptions are listed as YAML parses them, nothing stripped: a block scalar keeps
    its final line breaks (``>``, ``|``, and both of ``>+``/``|+``), except one that ends
    the front matter (parsed without its last line break); edge spaces stay."""
    styles = [">", ">-", ">+", "|", "|-", "|+"]
    for i, style in enumerate(styles):
        body = f"{style}\n  line one\n  line two\n\nmeta: x\n"
        (tmp_path / "s" / f"s{i}").mkdir(parents=True)
        (tmp_path / "s" / f"s{i}" / "SKILL.md").write_text(
            f"---\nname: s{i}\ndescription: {body}---\nBody.\n"
        )
    _skill(tmp_path / "s", "s6", ">2\n   schema one\n  two")
    _skill(tmp_path / "s", "s7", '"  quoted edge  "')
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    found = dict(
        re.findall(r"<name>(s\d)</name>\n  <description>(.*?)</description>", listing, re.S)
    )
    assert found == {
        "s0": "line one line two\n",
        "s1": "line one line two",
        "s2": "line one line two\n\n",
        "s3": "line one\nline two\n",
        "s4": "line one\nline two",
        "s5": "line one\nline two\n\n",
        "s6": " schema one\ntwo",
        "s7": "  quoted edge  ",
    }


@needs_agent("copilot-cli")
def test_which_files_load_and_the_description_listed(tmp_path: Path) -> None:
    """Front matter required; a name or description that is not a string (a number, null,
    a list) or a blank name keeps the skill out; a blank description is listed as written; a
    missing one is three text lines of the body; a SKILL.md in a skill's folder is not a
    skill, one deeper in a plain folder is."""
    root = tmp_path / "s"
    files = {
        "number/SKILL.md": "---\nname: number\ndescription: 12.50\n---\nBody.\n",
        "null-desc/SKILL.md": "---\nname: null-desc\ndescription:\n---\nBody.\n",
        "list/SKILL.md": "---\nname: list\ndescription:\n  - a\n---\nBody.\n",
        "empty-name/SKILL.md": '---\nname: ""\ndescription: D.\n---\nBody.\n',
        "no-front/SKILL.md": "Body without front matter.\n",
        "blank/SKILL.md": '---\nname: blank\ndescription: "  "\n---\nBody.\n',
        "body/SKILL.md": "---\nname: body\n---\n\n# word\n\nOne.\n  Two\t2 \n## h\nThree.\nFour.\n",
        "pack/SKILL.md": "---\nname: pack\ndescription: Pack.\n---\nBody.\n",
        "pack/skills/child/SKILL.md": "---\nname: child\ndescription: Child.\n---\n",
        "deep/sub/SKILL.md": "---\nname: deep-sub\ndescription: Deep.\n---\n",
        "zw/SKILL.md": '---\nname: zw\ndescription: "a\u200bb\u2060c"\n---\n',
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    listing = _identical([SourceSpec(str(root), "project")])
    found = dict(re.findall(r"<name>(.*?)</name>\n  <description>(.*?)</description>", listing))
    mine = {path.split("/")[-2] for path in files} | {"deep-sub"}
    assert {name: text for name, text in found.items() if name in mine} == {
        "blank": "  ",
        "body": "One. Two\t2 Three.",
        "deep-sub": "Deep.",
        "pack": "Pack.",
        "zw": "a\u200bb\u2060c",
    }


@needs_agent("copilot-cli")
def test_names_sort_by_code_point(tmp_path: Path) -> None:
    """Case, ``-``, ``.``, ``:`` and ``_`` order as their code points do: ``-`` < ``.`` <
    digits < ``:`` < upper case < ``_`` < lower case (54 names captured)."""
    names = "A a B b Z z 0 9 a0 aB Ab ab a.b a-b a_b a:b a- a. a_ a: a--b a-.b a._b A_b A-b"
    names += " A.b A:b a1 a10 a2 Foo foo FOO x.y.z X_Y x_y x-y x:y 1a 1A 1_a 1-a 1.a 1:a"
    for i, name in enumerate(names.split()):
        (tmp_path / "s" / f"d{i:02d}").mkdir(parents=True)
        text = f'---\nname: "{name}"\ndescription: d{i:02d}\n---\nBody.\n'
        (tmp_path / "s" / f"d{i:02d}" / "SKILL.md").write_text(text)
    listing = _identical([SourceSpec(str(tmp_path / "s"), "project")])
    listed = re.findall(r"<name>(.*?)</name>\n  <description>d\d\d<", listing)
    assert listed[:12] == [
        "0",
        "1-a",
        "1.a",
        "1:a",
        "1A",
        "1_a",
        "1a",
        "9",
        "A",
        "A-b",
        "A.b",
        "A:b",
    ]
    assert listed == sorted(names.split(), key=lambda n: [ord(c) for c in n])
