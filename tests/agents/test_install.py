"""Installing skills for an agent: links out of a skill folder and huge files never copied."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.agents import install_notes
from skillbench.agents._install import MAX_FILE_BYTES, install_skills

GIGABYTE = 1 << 30


def _tree_bytes(root: Path) -> int:
    """Bytes of every regular file under ``root`` (links not followed)."""
    return sum(
        (Path(d) / f).lstat().st_size
        for d, _, files in os.walk(root)
        for f in files
        if (Path(d) / f).is_file() and not (Path(d) / f).is_symlink()
    )


def bomb(root: Path) -> Path:
    """A skill folder holding links to /usr and /proc/self and a 1 GB sparse file."""
    skill = root / "bomb"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: bomb\ndescription: Harmless text.\n---\nBody.\n")
    (skill / "usr-link").symlink_to("/usr")
    (skill / "proc-link").symlink_to("/proc/self")
    with open(skill / "sparse.bin", "wb") as sparse:
        sparse.truncate(GIGABYTE)
    (skill / "notes.md").write_text("kept\n")
    (skill / "alias.md").symlink_to("notes.md")
    return skill


def test_links_out_and_a_sparse_gigabyte_are_left_out_and_named(tmp_path: Path) -> None:
    source = tmp_path / "skills"
    bomb(source)
    target = tmp_path / "installed"
    with install_notes() as notes:
        install_skills(source, target, tmp_path / "linked")
    installed = target / "bomb"
    assert sorted(p.name for p in installed.iterdir()) == ["SKILL.md", "alias.md", "notes.md"]
    assert os.readlink(installed / "alias.md") == "notes.md"
    assert _tree_bytes(target) < 1000
    said = "\n".join(notes)
    assert f"{source / 'bomb' / 'usr-link'}: a link out of its skill folder (to /usr)" in said
    assert f"{source / 'bomb' / 'proc-link'}: a link out of its skill folder" in said
    assert f"{source / 'bomb' / 'sparse.bin'}: {GIGABYTE:,} bytes" in said
    assert len(notes) == 3


def test_a_linked_skill_folder_stays_a_link_to_a_bounded_copy(tmp_path: Path) -> None:
    elsewhere = tmp_path / "dotfiles" / "real-skill"
    bomb(elsewhere.parent)
    (tmp_path / "dotfiles" / "bomb").rename(elsewhere)
    source = tmp_path / "skills"
    source.mkdir()
    (source / "linked").symlink_to(elsewhere)
    (source / "usr").symlink_to("/usr")
    target = tmp_path / "installed"
    with install_notes() as notes:
        install_skills(source, target, tmp_path / "linked")
    link = target / "linked"
    assert link.is_symlink()
    assert Path(os.readlink(link)).parent == tmp_path / "linked"
    assert (link / "SKILL.md").read_text().startswith("---\nname: bomb")
    assert not (link / "sparse.bin").exists()
    assert f"{source / 'usr'}: a link to a folder that is not a skill; not followed" in notes


def test_skill_folders_are_installed_by_name_with_their_nested_skills(tmp_path: Path) -> None:
    """Every agent gets the outermost skill folders at one level, nested ones inside them."""
    source = tmp_path / "skills"
    for folder in ("pack", "pack/android", "plain/deep/one"):
        (source / folder).mkdir(parents=True)
        (source / folder / "SKILL.md").write_text("---\nname: x\ndescription: d\n---\n")
    install_skills(source, tmp_path / "flat", tmp_path / "held")
    flat = sorted(str(p.relative_to(tmp_path / "flat")) for p in (tmp_path / "flat").rglob("*.md"))
    assert flat == ["one/SKILL.md", "pack/SKILL.md", "pack/android/SKILL.md"]


def test_two_folders_of_one_name_are_an_error_naming_the_second(tmp_path: Path) -> None:
    source = tmp_path / "skills"
    for folder in ("a/same", "b/same"):
        (source / folder).mkdir(parents=True)
        (source / folder / "SKILL.md").write_text("---\nname: same\ndescription: d\n---\n")
    with pytest.raises(SkillbenchError, match=r"b/same: a skill folder named 'same' already"):
        install_skills(source, tmp_path / "flat", tmp_path / "held")


def test_a_file_just_under_the_bound_is_installed(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "big"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: big\ndescription: d\n---\n")
    (skill / "data.bin").write_bytes(b"x" * MAX_FILE_BYTES)
    install_skills(skill, tmp_path / "out", tmp_path / "held")
    assert (tmp_path / "out" / "big" / "data.bin").stat().st_size == MAX_FILE_BYTES
