"""Each kind of broken input yields one precise diagnostic while the rest of the catalog loads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillbench._errors import SkillbenchError
from skillbench.catalog import MAX_DEPTH, Catalog, Diagnostic, load_catalog

WriteSkill = Callable[..., Path]


def _load_with_good(root: Path, write_skill: WriteSkill) -> tuple[Catalog, Diagnostic]:
    """Load ``root`` after adding a healthy skill; return the catalog and its one diagnostic."""
    write_skill(root, "good", description="A healthy skill.")
    catalog = load_catalog([str(root)])
    assert catalog.get("good") is not None, "the healthy skill must still load"
    assert len(catalog.diagnostics) == 1, catalog.diagnostics
    return catalog, catalog.diagnostics[0]


def test_broken_yaml_reports_the_file_line(tmp_path: Path, write_skill: WriteSkill) -> None:
    bad = tmp_path / "bad" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_text("---\nname: bad\ndescription: fine\ntags: [unclosed\nother: x\n---\nbody\n")
    catalog, diag = _load_with_good(tmp_path, write_skill)
    assert diag.path == str(bad) and diag.severity == "error"
    assert "invalid YAML" in diag.reason and diag.line in (5, 6)
    assert catalog.names == ("good",)


def test_yaml_error_line_counts_the_opening_delimiter(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    bad = tmp_path / "bad" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_text("---\nname: bad\ndescription: one: two\n---\n")
    _, diag = _load_with_good(tmp_path, write_skill)
    assert diag.line == 3


def test_unclosed_frontmatter(tmp_path: Path, write_skill: WriteSkill) -> None:
    bad = tmp_path / "bad" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_text("---\nname: bad\ndescription: never closed\n")
    _, diag = _load_with_good(tmp_path, write_skill)
    assert (diag.line, diag.severity) == (1, "error") and "never closed" in diag.reason


def test_non_utf8(tmp_path: Path, write_skill: WriteSkill) -> None:
    bad = tmp_path / "latin" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_bytes("---\nname: latin\ndescription: caf\u00e9\n---\n".encode("latin-1"))
    _, diag = _load_with_good(tmp_path, write_skill)
    assert diag.path == str(bad) and "not UTF-8" in diag.reason and diag.line == 3


def test_binary_file(tmp_path: Path, write_skill: WriteSkill) -> None:
    bad = tmp_path / "bin" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    _, diag = _load_with_good(tmp_path, write_skill)
    assert diag.severity == "error" and "not UTF-8 at byte offset 0 (0x89)" in diag.reason


def test_empty_file(tmp_path: Path, write_skill: WriteSkill) -> None:
    bad = tmp_path / "empty" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_text("  \n")
    _, diag = _load_with_good(tmp_path, write_skill)
    assert diag.path == str(bad) and "empty" in diag.reason


def test_missing_description_warns_and_falls_back(tmp_path: Path, write_skill: WriteSkill) -> None:
    path = tmp_path / "nodesc" / "SKILL.md"
    path.parent.mkdir()
    path.write_text("---\nname: nodesc\n---\n# No desc\n\nFirst paragraph\nof text.\n\nMore.\n")
    catalog, diag = _load_with_good(tmp_path, write_skill)
    assert (diag.severity, diag.field) == ("warning", "description")
    assert catalog.get("nodesc").description == "First paragraph of text."  # type: ignore[union-attr]


def test_unknown_key_warns_with_suggestion(tmp_path: Path, write_skill: WriteSkill) -> None:
    write_skill(tmp_path, "typo", name="typo", **{"alowed-tools": "Read"})
    catalog, diag = _load_with_good(tmp_path, write_skill)
    assert (diag.severity, diag.field, diag.line) == ("warning", "alowed-tools", 4)
    assert "did you mean 'allowed-tools'" in diag.reason
    assert catalog.get("typo") is not None


def test_wrong_value_type_is_dropped_with_a_warning(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    write_skill(tmp_path, "prio", name="prio", priority="high")
    catalog, diag = _load_with_good(tmp_path, write_skill)
    assert (diag.field, diag.line) == ("priority", 4)
    assert catalog.get("prio").priority is None  # type: ignore[union-attr]


def test_long_skill_md_name_is_rejected(tmp_path: Path, write_skill: WriteSkill) -> None:
    long = "x" * 65
    write_skill(tmp_path, "long", name=long)
    catalog, diag = _load_with_good(tmp_path, write_skill)
    assert (diag.severity, diag.line) == ("error", 2) and "65 characters" in diag.reason
    assert catalog.get(long) is None


def test_symlink_leading_outside_the_root_is_kept(tmp_path: Path, write_skill: WriteSkill) -> None:
    """Skills linked in from a dotfiles repository load (Claude Code resolves links)."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    write_skill(outside, "secret", name="secret")
    root.mkdir()
    (root / "escape").symlink_to(outside / "secret", target_is_directory=True)
    write_skill(root, "good", description="A healthy skill.")
    catalog = load_catalog([str(root)])
    assert sorted(catalog.names) == ["good", "secret"] and not catalog.diagnostics


def test_symlinked_skill_file_outside_the_root_is_kept(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    outside = write_skill(tmp_path / "outside", "x", name="linked")
    (tmp_path / "root" / "linked").mkdir(parents=True)
    (tmp_path / "root" / "linked" / "SKILL.md").symlink_to(outside)
    catalog = load_catalog([str(tmp_path / "root")], profile="claude-code")
    assert catalog.names == ("linked",) and not catalog.diagnostics


def test_directory_loop_via_symlink(tmp_path: Path, write_skill: WriteSkill) -> None:
    write_skill(tmp_path, "a/inner", name="inner")
    (tmp_path / "a" / "inner" / "back").symlink_to(tmp_path / "a", target_is_directory=True)
    catalog, diag = _load_with_good(tmp_path, write_skill)
    assert "directory loop" in diag.reason and diag.path == str(tmp_path / "a/inner/back")
    assert catalog.get("inner") is not None


def test_symlink_inside_root_is_deduped_by_real_path(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    write_skill(tmp_path, "real", name="real")
    (tmp_path / "alias").symlink_to(tmp_path / "real", target_is_directory=True)
    write_skill(tmp_path, "nameless")
    (tmp_path / "other").symlink_to(tmp_path / "nameless", target_is_directory=True)
    catalog = load_catalog([str(tmp_path)], profile="claude-code")
    assert sorted(catalog.names) == ["nameless", "real"]
    reasons = sorted(o.reason.split(":")[0] for o in catalog.overrides)
    assert reasons == ["same file (real path)", "same file (real path)"]
    later_wins = load_catalog([str(tmp_path)], profile="codebot")
    assert sorted(later_wins.names) == ["other", "real"]


def test_depth_limit(tmp_path: Path, write_skill: WriteSkill) -> None:
    """A walk stops at its depth: 6 levels where the agent's loader says so, else
    skillbench's own bound, so a deep tree is bounded either way."""
    import skillbench.agentspec  # noqa: F401  (the codex loading rules)

    write_skill(tmp_path, "1/2/3/4/5/6", name="six")
    write_skill(tmp_path, "1/2/3/4/5/6/7", name="seven")
    write_skill(tmp_path, "good", description="A healthy skill.")
    catalog = load_catalog([str(tmp_path)], profile="codex")
    assert catalog.get("six") is not None and catalog.get("seven") is None
    (diag,) = catalog.diagnostics
    assert diag.severity == "warning" and "deeper than 6 levels" in diag.reason
    assert diag.path == str(tmp_path / "1/2/3/4/5/6/7")
    deep = "/".join(str(i) for i in range(1, MAX_DEPTH + 2))
    write_skill(tmp_path, deep, name="deepest")
    everything = load_catalog([str(tmp_path)])
    assert everything.get("seven") is not None and everything.get("deepest") is None
    assert [d.path for d in everything.diagnostics] == [str(tmp_path / deep)]


def test_directory_limit(tmp_path: Path, write_skill: WriteSkill) -> None:
    from skillbench.catalog._walk import walk

    for i in range(5):
        write_skill(tmp_path, f"d{i}", name=f"d{i}")
    diagnostics: list[Diagnostic] = []
    folders = walk(str(tmp_path), lambda _n, _d: True, diagnostics, max_dirs=3)
    assert len(folders) == 3
    assert [Path(d.path).name for d in diagnostics] == ["d2", "d3", "d4"]
    assert all("3-directory limit" in d.reason for d in diagnostics)


def test_hidden_directories_are_skipped(tmp_path: Path, write_skill: WriteSkill) -> None:
    write_skill(tmp_path, ".git/hooks", name="hidden")
    write_skill(tmp_path, "good")
    assert load_catalog([str(tmp_path)]).names == ("good",)


def test_bad_skill_json_and_jsonl_lines(tmp_path: Path) -> None:
    (tmp_path / "decl").mkdir()
    (tmp_path / "decl" / "skill.json").write_text('{"name": "decl",\n "description": oops}\n')
    tools = tmp_path / "tools.jsonl"
    tools.write_text('{"name": "a", "description": "A."}\nnot json\n\n[1]\n{"name": "b"}\n')
    catalog = load_catalog([str(tmp_path), str(tools)])
    assert catalog.names == ("a", "b")
    found = {(Path(d.path).name, d.line, d.severity) for d in catalog.diagnostics}
    assert found == {
        ("skill.json", 2, "error"),
        ("tools.jsonl", 2, "error"),
        ("tools.jsonl", 4, "error"),
        ("tools.jsonl", 5, "warning"),
    }
    assert catalog.get("b").description == "Skill: b"  # type: ignore[union-attr]


def test_missing_source_and_bad_kind_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(SkillbenchError, match="not found"):
        load_catalog([str(tmp_path / "nope")])
    with pytest.raises(SkillbenchError, match="did you mean 'user'"):
        load_catalog([f"usr={tmp_path}"])
    with pytest.raises(SkillbenchError, match="did you mean 'codex'"):
        load_catalog([str(tmp_path)], profile="codx")
    (tmp_path / "x.txt").write_text("hi")
    with pytest.raises(SkillbenchError, match="unsupported"):
        load_catalog([str(tmp_path / "x.txt")])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(lambda t: ("---\n" + t + "\n---\nbody").encode()),
    )
)
def test_arbitrary_file_never_crashes(tmp_path: Path, write_skill: WriteSkill, data: bytes) -> None:
    root = tmp_path / str(abs(hash(data)))
    (root / "fuzz").mkdir(parents=True)
    (root / "fuzz" / "SKILL.md").write_bytes(data)
    write_skill(root, "good", description="A healthy skill.")
    catalog = load_catalog([str(root)])
    assert catalog.get("good") is not None
    fuzz_loaded = any(s.path.endswith("fuzz/SKILL.md") for s in catalog.skills)  # type: ignore[union-attr]
    fuzz_errors = [d for d in catalog.errors if d.path.endswith("fuzz/SKILL.md")]
    assert fuzz_loaded != bool(fuzz_errors)


def test_codex_follows_directory_links_except_in_its_system_scope(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    """Codex follows directory links for repo, user and admin roots, none for system ones
    (``follow_symlinks`` in codex-rs/core-skills/src/loader.rs, openai/codex)."""
    write_skill(tmp_path / "dotfiles", "linked", name="linked")
    for kind in ("user", "bundled"):
        (tmp_path / kind).mkdir()
        (tmp_path / kind / "linked").symlink_to(
            tmp_path / "dotfiles" / "linked", target_is_directory=True
        )
    user = load_catalog([f"user={tmp_path / 'user'}"], profile="codex")
    assert user.names == ("linked",) and not user.diagnostics
    system = load_catalog([f"bundled={tmp_path / 'bundled'}"], profile="codex")
    [skipped] = system.diagnostics
    assert system.names == () and "not followed in this scope" in skipped.reason
    assert load_catalog([f"bundled={tmp_path / 'bundled'}"], profile="claude-code").names == (
        "linked",
    )


def test_repeated_frontmatter_key_is_a_warning_at_its_file_and_line(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    bad = tmp_path / "twice" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_text("---\nname: twice\ndescription: first\ndescription: second\n---\nbody\n")
    catalog, diag = _load_with_good(tmp_path, write_skill)
    assert (diag.path, diag.line, diag.severity) == (str(bad), 4, "warning")
    assert "'description' repeated (first on line 3)" in diag.reason
    twice = catalog.get("twice")
    assert twice is not None and twice.description == "second"


def test_utf16_tool_list_loads_with_a_warning_naming_the_file(tmp_path: Path) -> None:
    tools = tmp_path / "tools.jsonl"
    lines = '{"name": "alpha", "description": "A."}\n{"name": "beta", "description": "B."}\n'
    tools.write_bytes(lines.encode("utf-16"))
    catalog = load_catalog([str(tools)])
    assert catalog.names == ("alpha", "beta")
    assert [(d.path, d.severity) for d in catalog.diagnostics] == [(str(tools), "warning")]
    assert "UTF-16" in catalog.diagnostics[0].reason
