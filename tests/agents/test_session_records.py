"""What a scripted session reads of a request, from hand-built bodies: the calls and results
of a chat-completions conversation, who sent a request, and the calls the script makes from
each agent's record (``Live.sessions``)."""

from __future__ import annotations

import json

import pytest

from skillbench._errors import SkillbenchError
from skillbench.agents import SESSION_AGENTS, Block, conversation

CHAT = {
    "messages": [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": [{"type": "text", "text": "Please tidy."}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c", "function": {"name": "skill", "arguments": '{"name": "tidy"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c", "content": "BODY"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "c", "function": {"name": "read", "arguments": "{oops"}}],
        },
        {"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": "FILE"}]},
    ],
    "tools": [{"type": "function", "function": {"name": "skill"}}],
}


def test_chat_calls_and_results_in_order_each_result_with_its_call() -> None:
    assert conversation("openai-chat", CHAT) == [
        Block("system", "text", "You are an agent."),
        Block("tools", "text", json.dumps(CHAT["tools"][0])),
        Block("user", "text", "Please tidy."),
        Block(
            "assistant", "call", json.dumps({"name": "skill", "input": {"name": "tidy"}}), "skill"
        ),
        Block("tool", "result", "BODY", "skill"),
        Block("assistant", "text", ""),
        Block("assistant", "call", json.dumps({"name": "read", "input": "{oops"}), "read"),
        Block("tool", "result", "FILE", "read"),
    ]


def test_an_api_without_a_reader_is_named() -> None:
    with pytest.raises(SkillbenchError, match="generate-content API"):
        conversation("generate-content", {})


def _chat_tools(*names: str) -> dict[str, object]:
    return {"messages": [], "tools": [{"type": "function", "function": {"name": n}} for n in names]}


def test_sub_agents_are_told_apart_by_the_records_mark() -> None:
    opencode, qwen = SESSION_AGENTS.get("opencode"), SESSION_AGENTS.get("qwen-code")
    assert not opencode.is_subagent(_chat_tools("skill", "task", "todowrite"))
    assert opencode.is_subagent(_chat_tools("skill", "read"))  # no todowrite: a sub-agent
    assert not opencode.is_subagent({"messages": []})  # the title request: no tools at all
    assert qwen.is_subagent(_chat_tools("agent", "skill", "read_file"))
    assert not qwen.is_subagent(_chat_tools("agent", "list_agents", "skill"))
    claude = SESSION_AGENTS.get("claude-code")
    sub = {"system": [{"type": "text", "text": "x-billing: cc_is_subagent=true;"}], "tools": []}
    assert claude.is_subagent(sub)
    assert not claude.is_subagent({"system": "You are Claude Code.", "tools": []})


def test_the_calls_a_script_makes_follow_the_record() -> None:
    opencode, qwen = SESSION_AGENTS.get("opencode"), SESSION_AGENTS.get("qwen-code")
    call = opencode.skill_call("tidy", "src/")  # opencode's skill tool takes no arguments
    assert (call.tool, json.loads(call.raw_arguments)) == ("skill", {"name": "tidy"})
    call = qwen.skill_call("tidy", "src/")
    assert json.loads(call.raw_arguments) == {"skill": "tidy", "args": "src/"}
    task = opencode.delegate_call("Use the tidy skill.")
    assert (task.tool, json.loads(task.raw_arguments)) == (
        "task",
        {
            "description": "Run the skill",
            "prompt": "Use the tidy skill.",
            "subagent_type": "general",
        },
    )
    task = qwen.delegate_call("Use the tidy skill.")
    assert task.tool == "agent"
    assert json.loads(task.raw_arguments)["run_in_background"] is False
    read = qwen.read_call("/p/src/a.py")
    assert (read.tool, json.loads(read.raw_arguments)) == (
        "read_file",
        {"file_path": "/p/src/a.py"},
    )
    assert qwen.turn_args("S", first=False)[:2] == ["--resume", "S"]
    assert opencode.turn_args("S", first=True) == []
    claude = SESSION_AGENTS.get("claude-code")
    assert claude.delegate is None
    with pytest.raises(SkillbenchError, match="forks itself"):
        claude.delegate_call("x")
