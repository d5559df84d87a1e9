"""lint: one finding per broken file, with the line a reader would point at, and the
per-profile cuts computed from the profiles' documented caps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.authoring import format_report, get_rule, lint_sources
from skillbench.cli._main import main
from tests.authoring.conftest import write_skill

# file (folder of tests/authoring/corpus/bad) → (rule, line), read off each file by hand.
EXPECTED = {
    "unterminated": ("SB001", 1),  # '---' on line 1 never closed
    # '[unclosed' runs into the closing fence on line 4; Codex reads it again quoted.
    "bad-yaml": ("SB002", 4),
    "unknown-key": ("SB002", 4),  # 'when-to-us:' is line 4
    "no-description": ("SB002", 1),  # no key to point at: the frontmatter's first line
    # Codex lists a SKILL.md whose name breaks the Agent Skills charset, and skips one past 64.
    "Bad_Name": ("SB101", 2),  # upper case and '_'
    "folder-a": ("SB103", 2),  # name 'other-name' in folder 'folder-a'
    "compact": ("SB301", 2),  # /compact is built into Claude Code and Codex
    "uses-arguments": ("SB401", 7),  # body line 3 = file line 7, no argument-hint
    "codex-too-long": ("SB602", 3),  # 1,082-character description, Codex lists 1,024
    "template-leftover": ("SB401", 7),  # '{{ owner_email }}' on line 7
    "a-very-long-name-that-goes-well-past-the-sixty-four-character-limit-x": ("SB102", 2),
    "wrong-type": ("SB002", 4),  # user-invocable: maybe
}
# Files a second rule fires on: Copilot CLI 1.0.102 does not load a description past 1,024;
# agents that read '[unclosed' as text where YAML refuses it; Cline CLI 3.0.65 lists a skill
# whose front matter is never closed (captured).
ALSO = {
    "codex-too-long": ("SB802", 3),
    "bad-yaml": ("SB804", None),
    "unterminated": ("SB804", None),
}


def _folder(path: str, root: Path) -> str:
    return Path(path).relative_to(root).parts[0]


def test_bad_corpus_gets_one_finding_per_file_with_its_line(bad_corpus: Path) -> None:
    report = lint_sources([str(bad_corpus)], profiles=("codex",))
    found: dict[str, list[tuple[str, int | None]]] = {}
    for f in report.findings:
        if f.severity != "info":
            assert f.path is not None
            found.setdefault(_folder(f.path, bad_corpus), []).append((f.rule.id, f.line))
    wanted = {folder: [expected] for folder, expected in EXPECTED.items()}
    for folder, extra in ALSO.items():
        wanted[folder].append(extra)
    assert {k: sorted(v, key=repr) for k, v in found.items()} == {
        k: sorted(v, key=repr) for k, v in wanted.items()
    }
    assert report.failed()


def test_loader_length_warning_is_restated_once_by_the_rule(tmp_path: Path) -> None:
    # skill.json names follow the looser identifier rule, so a 69-character one loads with a
    # warning, which the name-length rule restates (Codex itself would reject the skill).
    long_name = "a-very-long-name-that-goes-well-past-the-sixty-four-character-limit-x"
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"name": long_name, "description": "Long."}), encoding="utf-8")
    report = lint_sources([str(path)], profiles=("codex",))
    assert [f.rule.slug for f in report.findings if f.severity != "info"] == ["name-length"]


def test_duplicate_and_case_collision_across_sources(tmp_path: Path) -> None:
    first = write_skill(tmp_path / "a", "deploy-prod", "name: deploy-prod\ndescription: Ship it.")
    write_skill(tmp_path / "b", "deploy-prod", "name: deploy-prod\ndescription: Ship it now.")
    # Only the identifier rule of skill.json admits '_', so the look-alike is a JSON skill.
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "deploy_prod.json").write_text(
        json.dumps({"name": "deploy_prod", "description": "Ship again."}), encoding="utf-8"
    )
    # codebot: a later source overrides an earlier one, so a loses to b, and b to c.
    report = lint_sources(
        [
            f"bundled={tmp_path / 'a'}",
            f"project={tmp_path / 'b'}",
            f"plugin={tmp_path / 'c' / 'deploy_prod.json'}",
        ],
        profiles=("codebot",),
    )
    by_rule = {(f.rule.slug, f.path) for f in report.findings}
    assert ("duplicate-name", str(first)) in by_rule
    collisions = [f for f in report.findings if f.rule.slug == "case-collision"]
    assert len(collisions) == 1 and "'deploy-prod'" in collisions[0].message
    assert collisions[0].severity == "error"


def test_claude_code_cut_is_what_lies_past_1536(tmp_path: Path) -> None:
    description = "d" * 1600
    when = "w" * 100
    write_skill(
        tmp_path, "cap-test", f"name: cap-test\ndescription: {description}\nwhen_to_use: {when}"
    )
    report = lint_sources([str(tmp_path)], profiles=("claude-code",))
    [cut] = [f for f in report.findings if f.rule.slug == "claude-code-entry-cap"]
    # "description - when" is 1600 + 3 + 100 = 1703 characters; the cap keeps 1536.
    assert "167 characters" in cut.message
    assert cut.line == 3


def test_codebot_caps_both_lines(tmp_path: Path) -> None:
    write_skill(tmp_path, "cb", f"name: cb\ndescription: {'x' * 300}\nwhen_to_use: {'y' * 200}")
    report = lint_sources([str(tmp_path)], profiles=("codebot",), budget=100_000)
    [cut] = [f for f in report.findings if f.rule.slug == "codebot-line-cap"]
    # "- cb: " + 300 = 306 → 220; "when: " + 200 = 206 → 160.
    assert cut.message == (
        "codebot cuts the entry line from 306 to 220 characters "
        "and the when: line from 206 to 160 characters"
    )


def test_budget_share_and_hidden_skill(tmp_path: Path) -> None:
    write_skill(tmp_path, "aa", "name: aa\ndescription: " + "a" * 94)
    write_skill(tmp_path, "bb", "name: bb\ndescription: " + "b" * 94)
    # Entries are "- aa: " + 94 = 100 characters (+1 newline). codebot counts its 63-character
    # header, 94-character footer and a newline (158), so 300 fits aa (259) but not bb (360).
    report = lint_sources([str(tmp_path)], profiles=("codebot",), budget=300)
    shares = {f.skill: f.message for f in report.findings if f.rule.slug == "budget-share"}
    assert shares == {
        "aa": "codebot (budget 300): takes 101 characters (33.7%)",
        "bb": "codebot (budget 300): would take 101 characters (33.7%)",
    }
    hidden = [f.skill for f in report.findings if f.rule.slug == "hidden-by-budget"]
    assert hidden == ["bb"]
    assert not report.failed() and report.failed(strict=True)


def test_paths_glob_matching_nothing(tmp_path: Path) -> None:
    skills, cwd = tmp_path / "skills", tmp_path / "work"
    write_skill(skills, "tf", "name: tf\ndescription: Plan Terraform.\npaths: ['**/*.tf']")
    (cwd / "src").mkdir(parents=True)
    (cwd / "src" / "main.py").write_text("print()\n", encoding="utf-8")
    report = lint_sources([str(skills)], profiles=("codebot",), cwd=cwd)
    [unmatched] = [f for f in report.findings if f.rule.slug == "paths-unmatched"]
    assert unmatched.line == 4 and "**/*.tf" in unmatched.message
    (cwd / "infra.tf").write_text("", encoding="utf-8")
    from skillbench.catalog import clear_paths_cache

    clear_paths_cache()
    again = lint_sources([str(skills)], profiles=("codebot",), cwd=cwd)
    assert not [f for f in again.findings if f.rule.slug == "paths-unmatched"]


def test_github_format_annotations(bad_corpus: Path) -> None:
    report = lint_sources([str(bad_corpus / "unterminated")], profiles=("codex",))
    lines = format_report(report, "github").splitlines()
    path = bad_corpus / "unterminated" / "SKILL.md"
    error = f"::error file={path},line=1,title=SB001 unloadable::frontmatter opened with '---'"
    assert next(line for line in lines if line.startswith("::error")).startswith(error)
    assert lines[-1].endswith("1 errors, 1 warnings, 0 notes")


def test_github_format_escapes_properties() -> None:
    from skillbench.authoring import Finding, LintReport

    finding = Finding(get_rule("SB101"), "a,b:c.md", 3, "100% bad\nreally")
    text = format_report(LintReport((finding,), 1, ("codebot",)), "github")
    assert text.splitlines()[0] == (
        "::warning file=a%2Cb%3Ac.md,line=3,title=SB101 name-format::100%25 bad%0Areally"
    )


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["lint", "--explain", "SB601"], 0),
        (["lint", "--explain", "claude-code-entry-cap"], 0),
        (["lint", "--explain", "no-such-rule"], 2),
        (["lint"], 2),
    ],
)
def test_cli_explain_and_usage_exit_codes(argv: list[str], code: int) -> None:
    assert main(argv) == code


def test_cli_exit_codes_follow_severity(tmp_path: Path, bad_corpus: Path) -> None:
    clean = tmp_path / "clean"
    write_skill(clean, "tidy", "name: tidy\ndescription: Tidy the imports of a module.")
    warned = tmp_path / "warned"
    write_skill(warned, "review", "name: review\ndescription: Review the diff.")
    assert main(["lint", str(clean), "--profile", "codebot"]) == 0
    assert main(["lint", str(warned), "--profile", "codebot"]) == 0
    assert main(["lint", str(warned), "--profile", "codebot", "--strict"]) == 1
    assert main(["lint", str(bad_corpus / "bad-yaml")]) == 1
    with pytest.raises(SystemExit) as exc:
        main(["lint", str(clean), "--format", "xml"])
    assert exc.value.code == 2


def test_cli_json_output_file(tmp_path: Path, bad_corpus: Path) -> None:
    import json

    out = tmp_path / "lint.json"
    main(
        [
            "lint",
            str(bad_corpus / "compact"),
            "--profile",
            "codex",
            "--format",
            "json",
            "-o",
            str(out),
        ]
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["counts"] == {"error": 0, "warning": 1, "info": 1}
    assert data["findings"][0]["rule"] == "SB301"


@pytest.mark.parametrize("filler", [10, 20_000])
def test_a_placeholder_is_reported_once_on_its_file_line_in_any_size_of_body(
    tmp_path: Path, filler: int
) -> None:
    # Frontmatter on lines 1-4, then the body: `filler` lines, the placeholder, the filler
    # again, the placeholder twice more. 20,000 lines keep the body in its file.
    lines = ["Check the thing."] * filler
    body = "\n".join([*lines, "Use $ARGUMENTS here.", *lines, "$ARGUMENTS", "$ARGUMENTS"])
    write_skill(tmp_path, "scoped", "name: scoped\ndescription: Scoped checks.", body + "\n")
    report = lint_sources([str(tmp_path)], profiles=("codebot",))
    found = [f for f in report.findings if f.rule.id == "SB401"]
    assert [(f.line, f.message) for f in found] == [
        (
            4 + filler + 1,
            "$ARGUMENTS: no argument-hint or arguments is declared (and 2 more times)",
        )
    ]


def test_placeholders_past_the_cap_are_counted_not_listed(tmp_path: Path) -> None:
    body = "".join(f"Fill {{{{slot{i}}}}} in.\n" for i in range(25))
    write_skill(tmp_path, "templated", "name: templated\ndescription: Templated.", body)
    found = [f for f in lint_sources([str(tmp_path)]).findings if f.rule.id == "SB401"]
    assert [f.line for f in found] == list(range(5, 25))  # body line 1 is file line 5
    assert found[-1].message == (
        "{{slot19}}: a template placeholder left unfilled; "
        "5 more unresolved placeholders are not listed"
    )
