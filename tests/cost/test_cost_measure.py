"""The parts of a measurement that need no agent: the installed copy declaring each mode,
the body's mark, the skills a scripted session cannot run, and the command's input errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.catalog import Skill, load_catalog
from skillbench.cli import main
from skillbench.cost import unmeasurable
from skillbench.cost._measure import body_mark, install, with_context

SKILL = (
    "---\nname: tidy\ndescription: Tidy.\ncontext: fork\nagent: Explore\n---\n"
    "# Tidy $ARGUMENTS\n\nSort every import.\n"
)


def test_with_context_declares_each_mode() -> None:
    inline = with_context(SKILL, "inline")
    assert inline == (
        "---\nname: tidy\ndescription: Tidy.\nagent: Explore\n---\n"
        "# Tidy $ARGUMENTS\n\nSort every import.\n"
    )
    fork = with_context(inline, "fork")
    assert fork == (
        "---\nname: tidy\ndescription: Tidy.\nagent: Explore\ncontext: fork\n---\n"
        "# Tidy $ARGUMENTS\n\nSort every import.\n"
    )
    assert with_context(fork, "fork") == fork
    crlf = with_context("\ufeff" + SKILL.replace("\n", "\r\n"), "inline")
    assert crlf.replace("\r\n", "\n") == inline


@pytest.mark.parametrize("text", ["# no frontmatter\n", "---\nname: x\nnever closed\n"])
def test_with_context_refuses_a_file_without_frontmatter(text: str) -> None:
    with pytest.raises(SkillbenchError, match="frontmatter"):
        with_context(text, "fork")


def test_install_copies_the_folder_as_its_source_kind(tmp_path: Path) -> None:
    folder = tmp_path / "src" / "tidy"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (folder / "notes.md").write_text("extra", encoding="utf-8")
    (skill,) = load_catalog([f"user={tmp_path / 'src'}"]).skills
    source = install(skill, "inline", tmp_path / "out")
    assert (source.path, source.kind) == (str(tmp_path / "out" / "inline"), "user")
    copied = tmp_path / "out" / "inline" / "tidy"
    assert (copied / "notes.md").read_text() == "extra"
    assert "context:" not in (copied / "SKILL.md").read_text()
    assert (folder / "SKILL.md").read_text() == SKILL


def test_body_mark_is_a_plain_line_of_the_body() -> None:
    assert body_mark(
        Skill(name="t", description="d", body="# Tidy $1\n\nSort every import.\n")
    ) == ("Sort every import.")
    with pytest.raises(SkillbenchError, match="no line to recognise"):
        body_mark(Skill(name="t", description="d", path="x/SKILL.md", body="$ARGUMENTS\n"))


def test_skills_that_would_run_commands_are_not_measured(tmp_path: Path) -> None:
    injected = Skill(name="a", description="d", path="p", body="Stat: !`git diff --stat`\n")
    assert "!`git diff --stat`" in (unmeasurable(injected) or "")
    file = tmp_path / "SKILL.md"
    file.write_text("---\nname: a\ndescription: d\nhooks:\n  PreToolUse: []\n---\nBody.\n")
    assert "hooks" in (unmeasurable(Skill(name="a", description="d", path=str(file))) or "")
    file.write_text("---\nname: a\ndescription: d\n---\nhooks: in the body is prose\n")
    assert unmeasurable(Skill(name="a", description="d", path=str(file))) is None


def test_unmeasurable_skills_say_why(tmp_path: Path) -> None:
    file = tmp_path / "SKILL.md"
    file.write_text("---\nname: a\ndescription: d\n---\nBody.\n")
    assert unmeasurable(Skill(name="a", description="d", path=str(file))) is None
    hidden = Skill(name="a", description="d", path="p", disable_model_invocation=True)
    assert "disable-model-invocation" in (unmeasurable(hidden) or "")
    conditional = Skill(name="a", description="d", path="p", paths=("migrations/**",))
    assert "paths: migrations/**" in (unmeasurable(conditional) or "")
    assert "no SKILL.md" in (unmeasurable(Skill(name="a", description="d")) or "")


def test_measure_input_errors_name_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "skills" / "tidy"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL.replace("agent:", "paths: [a/**]\nagent:"))
    base = ["cost", str(tmp_path / "skills"), "--measure", "claude-code"]
    assert main([*base, "--skill", "nope"]) == 1
    assert "--skill nope: not in the catalog" in capsys.readouterr().err
    assert main([*base, "--skill", "tidy"]) == 1
    assert "--skill tidy: paths: a/**" in capsys.readouterr().err
    assert main(base) == 1
    err = capsys.readouterr().err
    assert "skipped tidy: paths: a/**" in err and "no skill to measure" in err
    with pytest.raises(SystemExit):
        main([*base, "--follow-ups", "0"])
    assert "--follow-ups: must be >= 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # Codex has no fork to measure
        main(["cost", str(tmp_path / "skills"), "--measure", "codex"])
    assert "--measure: invalid choice: 'codex'" in capsys.readouterr().err
