"""Expansion rules of both invocation paths: the model's Skill call, the user's slash command."""

from __future__ import annotations

import pytest

from skillbench.catalog import Skill
from skillbench.cost import (
    PRIVILEGED_SOURCES,
    expand_args,
    process_invocation,
    strip_frontmatter,
)


def make(body: str, **fields: object) -> Skill:
    return Skill(name="review", description="Review a diff.", body=body, **fields)  # type: ignore[arg-type]


def test_model_path_wraps_expanded_body() -> None:
    inv = process_invocation(make("Review $ARGUMENTS now."), args="src/", via="model")
    assert inv.text == '<skill name="review">\nReview src/ now.\n</skill>'
    assert (inv.mode, inv.denied, inv.reason, inv.via) == ("inline", False, None, "model")


def test_frontmatter_is_stripped_whether_or_not_the_loader_did() -> None:
    raw = "---\nname: review\ndescription: x\n---\nBody line.\n"
    stripped = process_invocation(make("Body line.\n"), args=None, via="model")
    unstripped = process_invocation(make(raw), args=None, via="model")
    assert stripped.text == unstripped.text == '<skill name="review">\nBody line.\n</skill>'


def test_a_leading_markdown_rule_is_not_frontmatter() -> None:
    body = "---\n\nNot yaml here.\n---\nRest."
    assert strip_frontmatter(body) == body


def test_positional_named_and_whole_arguments() -> None:
    body = "all=[$ARGUMENTS] braced=[${ARGUMENTS}] one=[$1] two=[$2] nine=[$9] ten=[$10]"
    out = expand_args(body, 'a "b c"', ())
    assert out == 'all=[a "b c"] braced=[a "b c"] one=[a] two=[b c] nine=[] ten=[$10]'


def test_named_arguments_follow_declared_order_and_word_boundaries() -> None:
    body = "scope=$scope path=$path scopes=$scopes"
    assert (
        expand_args(body, "api docs/", ("scope", "path")) == "scope=api path=docs/ scopes=$scopes"
    )
    assert expand_args(body, None, ("scope", "path")) == "scope= path= scopes=$scopes"


def test_arguments_are_inserted_verbatim_not_expanded_again() -> None:
    assert expand_args("[$ARGUMENTS] [$1]", "$1 ${CLAUDE_SKILL_DIR}") == (
        "[$1 ${CLAUDE_SKILL_DIR}] [$1]"
    )


def test_model_path_named_arguments_come_from_the_skill() -> None:
    inv = process_invocation(
        make("Focus on $scope.", arguments=("scope",)), args="auth", via="model"
    )
    assert "Focus on auth." in inv.text


@pytest.mark.parametrize("var", ["CLAUDE_SKILL_DIR", "CODEBOT_SKILL_DIR", "SKILL_DIR"])
def test_skill_dir_variables(var: str) -> None:
    inv = process_invocation(
        make(f"Read ${{{var}}}/checklist.md"), args=None, via="model", skill_dir="/s/review"
    )
    assert "Read /s/review/checklist.md" in inv.text


def test_skill_dir_defaults_to_the_folder_of_the_skill_file() -> None:
    skill = make("at ${CLAUDE_SKILL_DIR}", path="/repo/.claude/skills/review/SKILL.md")
    assert (
        "at /repo/.claude/skills/review" in process_invocation(skill, args=None, via="model").text
    )


def test_session_id_expands_only_when_known() -> None:
    skill = make("log ${CLAUDE_SESSION_ID}")
    assert "log s-42" in process_invocation(skill, args=None, via="model", session_id="s-42").text
    assert "log ${CLAUDE_SESSION_ID}" in process_invocation(skill, args=None, via="model").text


def test_user_path_prefix_and_braced_placeholder() -> None:
    skill = make("Check ${ARGUMENTS} in ${CLAUDE_SKILL_DIR}.")
    inv = process_invocation(skill, args="prod", via="user", skill_dir="/s/deploy")
    assert inv.text == "Base directory for this skill: /s/deploy\n\nCheck prod in /s/deploy."


def test_user_path_appends_arguments_when_body_has_no_placeholder() -> None:
    skill = make("Deploy carefully. Use $ARGUMENTS style? No: user path only knows the braces.")
    inv = process_invocation(skill, args="staging", via="user", skill_dir="/d")
    assert inv.text == (
        "Base directory for this skill: /d\n\n"
        "Deploy carefully. Use $ARGUMENTS style? No: user path only knows the braces."
        "\n\nArguments: staging"
    )
    assert not inv.text.startswith("<skill")


def test_user_path_without_arguments_appends_nothing() -> None:
    inv = process_invocation(make("Body."), args=None, via="user", skill_dir="/d")
    assert inv.text == "Base directory for this skill: /d\n\nBody."


def test_model_invocation_of_a_user_only_skill_is_denied() -> None:
    skill = make("Deploy.", disable_model_invocation=True)
    denied = process_invocation(skill, args=None, via="model")
    assert denied.denied and denied.text == "" and "/review" in (denied.reason or "")
    allowed = process_invocation(skill, args=None, via="user", skill_dir="/d")
    assert not allowed.denied and allowed.text.endswith("Deploy.")


def test_user_invocation_of_a_model_only_skill_is_denied() -> None:
    inv = process_invocation(make("x", user_invocable=False), args=None, via="user")
    assert inv.denied and inv.reason


def test_context_fork_forks_and_anything_else_is_inline() -> None:
    assert process_invocation(make("x", context="fork"), args=None, via="model").mode == "fork"
    assert process_invocation(make("x"), args=None, via="model").mode == "inline"


@pytest.mark.parametrize("source", ["bundled", "user", "project", "plugin", "extra", "managed"])
def test_privileged_fields_only_for_privileged_sources(source: str) -> None:
    skill = make(
        "x", source=source, allowed_tools=("Bash",), model="opus", effort="high", agent="general"
    )
    inv = process_invocation(skill, args=None, via="model")
    kept = source in PRIVILEGED_SOURCES
    assert inv.allowed_tools == (("Bash",) if kept else ())
    assert (inv.model, inv.effort) == (("opus", "high") if kept else (None, None))
    assert inv.agent == "general"
    assert kept == (source not in {"plugin", "extra"})


def test_shell_injections_are_found_and_left_visible() -> None:
    body = "Status: !`git status --short`\nDiff: !`git diff --stat`\nPlain `code` is fine."
    for via in ("model", "user"):
        inv = process_invocation(make(body), args=None, via=via, skill_dir="/d")  # type: ignore[arg-type]
        assert inv.shell_injections == ("git status --short", "git diff --stat")
        assert "!`git status --short`" in inv.text


def test_a_bang_in_inline_code_is_prose_not_an_injection() -> None:
    body = "Avoid non-null assertions (`!`) that hide `undefined`; wow!`x` is not one either."
    assert process_invocation(make(body), args=None, via="model").shell_injections == ()


def test_name_with_quote_is_escaped_in_wrapper() -> None:
    skill = Skill(name='odd"name', description="d", body="b")
    assert process_invocation(skill, args=None, via="model").text.startswith(
        '<skill name="odd&quot;name">'
    )
