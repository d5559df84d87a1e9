"""How Copilot CLI 1.0.102 reads a SKILL.md, written by hand from captures: which files it
loads, the description it lists (as written, blank too; made from the body when missing)."""

from __future__ import annotations

import re
from pathlib import Path

from skillbench.catalog import body_lines, load_catalog
from skillbench.listing import render_listing


def _write(root: Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text(text)


def _listed(root: Path) -> dict[str, str]:
    catalog = load_catalog([f"project={root}"], profile="copilot-cli")
    listing = render_listing(catalog.skills, profile="copilot-cli", options={"snapshot": None})
    found = re.findall(
        r"<name>(.*?)</name>\n  <description>(.*?)</description>", listing.text, re.S
    )
    return dict(found)


def test_only_string_names_and_descriptions_in_front_matter_load(tmp_path: Path) -> None:
    for folder, front in {
        "null-desc": "name: null-desc\ndescription:\n",
        "number": "name: number\ndescription: 12.50\n",
        "flag": "name: flag\ndescription: true\n",
        "list": "name: list\ndescription:\n  - a\n  - b\n",
        "empty-name": 'name: ""\ndescription: D.\n',
        "null-name": "name:\ndescription: D.\n",
        "number-name": "name: 12.50\ndescription: D.\n",
        "kept": "name: kept\ndescription: Kept.\n",
        "folder-named": "description: By folder.\n",
    }.items():
        _write(tmp_path, folder, f"---\n{front}---\nBody.\n")
    _write(tmp_path, "no-front", "Body without front matter.\n")
    assert _listed(tmp_path) == {"folder-named": "By folder.", "kept": "Kept."}


def test_a_blank_description_is_listed_as_written(tmp_path: Path) -> None:
    _write(tmp_path, "empty", '---\nname: empty\ndescription: ""\n---\nBody.\n')
    _write(tmp_path, "spaces", '---\nname: spaces\ndescription: "   "\n---\nBody.\n')
    assert _listed(tmp_path) == {"empty": "", "spaces": "   "}


def test_a_missing_description_is_three_text_lines_of_the_body(tmp_path: Path) -> None:
    body = "\n# word\n\nBody phrase here.\n  Second  line\t.  \n\n## Sub\nPara two.\nFourth.\n"
    _write(tmp_path, "lines", f"---\nname: lines\n---\n{body}")
    _write(tmp_path, "headings", "---\nname: headings\n---\n# Only\n#tag\n")
    _write(tmp_path, "nothing", "---\nname: nothing\n---\n")
    _write(tmp_path, "crlf", "---\r\nname: crlf\r\n---\r\nA\r\nB\r\n")
    assert _listed(tmp_path) == {
        "crlf": "A B",
        "headings": "",
        "lines": "Body phrase here. Second  line\t. Para two.",
        "nothing": "",
    }


def test_body_lines_are_cut_at_1024_characters() -> None:
    assert body_lines("abcd " * 600) == ("abcd " * 205)[:1024]
    assert body_lines("```\ncode\n```\nafter\n") == "``` code ```"


def test_a_skill_inside_another_skills_folder_is_not_listed(tmp_path: Path) -> None:
    _write(tmp_path, "pack", "---\nname: pack\ndescription: Pack.\n---\nBody.\n")
    _write(tmp_path / "pack" / "skills", "child", "---\nname: child\ndescription: C.\n---\n")
    _write(tmp_path / "deep", "sub", "---\nname: deep-sub\ndescription: Deep.\n---\n")
    assert _listed(tmp_path) == {"deep-sub": "Deep.", "pack": "Pack."}


def test_format_characters_are_kept_bidi_controls_are_not(tmp_path: Path) -> None:
    """Copilot lists a zero-width space and a word joiner as written (captured); a listing
    skillbench renders never carries a bidirectional override, so that text stays as the
    loader cleaned it."""
    _write(tmp_path, "zw", '---\nname: zw\ndescription: "a\u200bb\u2060c "\n---\nBody.\n')
    _write(tmp_path, "bidi", '---\nname: bidi\ndescription: "x\u202ey"\n---\nBody.\n')
    _write(tmp_path, "body", "---\nname: body\n---\nz\u200bz\n")
    assert _listed(tmp_path) == {"bidi": "xy", "body": "z\u200bz", "zw": "a\u200bb\u2060c "}
