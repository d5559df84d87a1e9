"""Loading rules as Claude Code 2.1.328 and Codex 0.169.0 have them, on the skill-pack fixture.

The expected lists are what each agent listed when the fixture was laid out verbatim in its
folders (``.claude/skills`` or ``.agents/skills`` of the project and of HOME) and captured:
Claude Code lists by folder, keeps a skill nested in another skill's folder out, and lets a
user's folder win over the project's of the same name; Codex lists every SKILL.md by its
``name`` (slashes, colons, capitals and underscores included), nested ones too, and keeps two
skills of one name when their files differ. tests/agents/test_skill_pack_fidelity.py checks
the same against the installed agents.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.catalog import load_catalog

PACK = Path(__file__).resolve().parents[2] / "datasets" / "skill-pack"
SOURCES = [f"project={PACK / 'project'}", f"user={PACK / 'user'}"]

CLAUDE_CODE_FOLDERS = [
    "alias-folder",
    "shared-name",
    "user-linked",
    "user-only",
    "PdfTools",
    "android",
    "capital-name",
    "colon-description",
    "icons",
    "web-tokens",
    "dup-a",
    "dup-b",
    "linked-skill",
    "lint-colon",
    "meeting-kit",
    "no-name",
    "original-folder",
    "plain-skill",
    "alias-link",
]
"""Folders of the skills Claude Code lists (design-pack's two arrive flattened by the
install, as ``icons`` and ``web-tokens``; ``alias-link`` links to ``snake_case_skill`` in the
same folder and, scanned first, is the one kept); the listing's order is the profile's concern."""

CODEX_NAMES = [
    "Capital-Name",
    "PdfTools",
    "colon-description",
    "contact-center/android",
    "ios-icons",
    "linked-skill",
    "meeting-kit",
    "meeting-kit-android",
    "meeting-kit-compose",
    "no-name",
    "plain-skill",
    "plain-skill",
    "renamed-skill",
    "shared-name",
    "shared-name",
    "snake_case_skill",
    "tools:lint",
    "twice",
    "twice",
    "user-linked",
    "user-only",
    "web-tokens",
]


def test_claude_code_lists_by_folder_and_hides_nested_skills() -> None:
    catalog = load_catalog(SOURCES, profile="claude-code")
    folders = [Path(s.path or "").parent.name for s in catalog.skills]
    assert sorted(folders) == sorted(CLAUDE_CODE_FOLDERS)
    names = {Path(s.path or "").parent.name: s.name for s in catalog.skills}
    assert names["android"] == "contact-center/android"
    assert names["lint-colon"] == "tools:lint"
    assert names["capital-name"] == "Capital-Name"
    hidden = [d for d in catalog.diagnostics if "not listed: inside the skill folder" in d.reason]
    assert sorted(Path(d.path).name for d in hidden) == ["android", "compose"]
    assert all(d.reason.count("meeting-kit") == 1 for d in hidden)


def test_claude_code_user_folder_wins_over_the_project_folder_of_that_name() -> None:
    catalog = load_catalog(SOURCES, profile="claude-code")
    reasons = sorted(o.reason for o in catalog.overrides)
    assert len(reasons) == 2
    assert reasons[0].startswith("same file (real path): project ")
    assert reasons[1].startswith("same folder name: user ")
    assert "/user/shared-name/SKILL.md wins over project " in reasons[1]


def test_codex_lists_every_skill_file_under_its_name() -> None:
    catalog = load_catalog(SOURCES, profile="codex")
    assert sorted(s.name for s in catalog.skills) == CODEX_NAMES
    (same_file,) = catalog.overrides
    assert same_file.reason.startswith("same file (real path)")
    assert Path(same_file.winner.path or "").parent.name == "alias-link"


@pytest.mark.parametrize("profile", ["claude-code", "codex"])
def test_a_colon_in_an_unquoted_description_is_read_as_the_agents_read_it(profile: str) -> None:
    catalog = load_catalog(SOURCES, profile=profile)
    skill = catalog.get("colon-description")
    assert skill is not None
    assert skill.description.startswith("Note: this description holds an unquoted colon")
    (warning,) = [d for d in catalog.diagnostics if "colon-description" in d.path]
    assert warning.severity == "warning" and warning.line == 3
    assert "read with its values quoted" in warning.reason


def test_the_reference_profile_keeps_the_agent_skills_name_rule() -> None:
    catalog = load_catalog(SOURCES, profile="codebot")
    rejected = {Path(d.path).parent.name for d in catalog.errors}
    assert {"android", "lint-colon", "capital-name", "PdfTools", "snake_case_skill"} <= rejected
    assert "colon-description" in rejected


def test_claude_code_never_walks_a_link_inside_a_skill_folder(tmp_path: Path) -> None:
    """To Claude Code the rest of a skill folder is the skill's files: a link there to /usr
    or /proc/self is not walked for skills (nor reported)."""
    skill = tmp_path / "skills" / "bomb"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: bomb\ndescription: Harmless.\n---\n")
    (skill / "usr-link").symlink_to("/usr")
    (skill / "proc-link").symlink_to("/proc/self")
    catalog = load_catalog([str(tmp_path / "skills")], profile="claude-code")
    assert catalog.names == ("bomb",)
    assert catalog.diagnostics == ()
