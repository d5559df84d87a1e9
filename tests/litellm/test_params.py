"""Selector params: checked at config time, with the nearest valid key on a typo."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.selectors import SELECTORS, SelectorEnv


def build(params: dict, tmp_path: Path):
    return SELECTORS.get("litellm")(params, SelectorEnv(tmp_path, base_dir=tmp_path))


def test_model_is_required_and_typos_suggest(tmp_path: Path) -> None:
    with pytest.raises(SkillbenchError, match="'model' is required"):
        build({}, tmp_path)
    with pytest.raises(SkillbenchError, match="did you mean 'max_attempts'"):
        build({"model": "openai/x", "max_attempt": 3}, tmp_path)


def test_api_key_env_must_name_a_variable_not_hold_a_key(tmp_path: Path) -> None:
    with pytest.raises(SkillbenchError, match="NAME of an environment variable"):
        build({"model": "openai/x", "api_key_env": "sk-abc-123"}, tmp_path)
    assert build({"model": "openai/x", "api_key_env": "OPENAI_API_KEY"}, tmp_path)


def test_sampling_params_cannot_override_request_fields(tmp_path: Path) -> None:
    with pytest.raises(SkillbenchError, match="api_key cannot be set"):
        build({"model": "openai/x", "params": {"api_key": "x"}}, tmp_path)


def test_system_prompt_from_a_file_next_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "agent.md").write_text("You are a terse agent.\n", encoding="utf-8")
    sel = build({"model": "openai/x", "system_prompt": "agent.md"}, tmp_path)
    assert sel.params.system_prompt == "You are a terse agent."
    with pytest.raises(SkillbenchError, match="not found"):
        build({"model": "openai/x", "system_prompt": "missing.md"}, tmp_path)
    inline = build({"model": "openai/x", "system_prompt": "Be helpful."}, tmp_path)
    assert inline.params.system_prompt == "Be helpful."


def test_fork_params_default_to_the_selection_params(tmp_path: Path) -> None:
    (tmp_path / "sub.md").write_text("You run one skill.\n", encoding="utf-8")
    sel = build({"model": "openai/x", "params": {"temperature": 0}}, tmp_path)
    bounded = {"temperature": 0, "max_tokens": 4096}  # a ceiling is always sent
    assert not sel.params.execute_fork and sel.params.fork_params == bounded
    assert sel.params.params == bounded
    assert "sub-agent" in sel.params.fork_system_prompt
    own = build(
        {
            "model": "openai/x",
            "execute_fork": True,
            "fork_system_prompt": "sub.md",
            "fork_params": {"max_tokens": 300},
        },
        tmp_path,
    )
    assert own.params.fork_system_prompt == "You run one skill."
    assert own.params.fork_params == {"max_tokens": 300}
    with pytest.raises(SkillbenchError, match="tools cannot be set"):
        build({"model": "openai/x", "fork_params": {"tools": []}}, tmp_path)
    with pytest.raises(SkillbenchError, match="true or false"):
        build({"model": "openai/x", "execute_fork": "yes"}, tmp_path)


def test_an_explicit_completion_ceiling_is_kept(tmp_path: Path) -> None:
    own = build({"model": "openai/x", "params": {"max_completion_tokens": 50}}, tmp_path)
    assert own.params.params == {"max_completion_tokens": 50}
