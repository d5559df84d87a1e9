"""Attribution of a hand-built two-turn session: every part counted by litellm directly.

The session has Claude Code's shape (listing in a system-role message, the skill call's
result as a ``tool_result``, a sub-agent request of its own) but only our own short texts,
each under the tokenizer's chunk size, so ``litellm.token_counter`` on each text is the
independent reference.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.agents import Recorded, Reply, Session, SessionRequest, Workspace
from skillbench.cost import Marks, attribute_session, measured_break_even, mode_cost
from skillbench.tokens import litellm_offline

MODEL = "gpt-4o"
SYSTEM = "You are a test agent that helps with small chores."
TOOL = {"name": "Skill", "description": "Run a skill by name.", "input_schema": {"type": "object"}}
REMINDER = "<system-reminder>Today is a test day.</system-reminder>"
LISTING = "The following skills are available for use with the Skill tool:\n\n- tidy: Tidy files."
ENVIRONMENT = "# Environment\nWorking directory: /tmp/project"
PROMPT = "Please use the tidy skill on src/."
FOLLOW_UP = "Follow-up question 1: is there anything else?"
BODY = "Base directory for this skill: /tmp/skills/tidy\n\n# Tidy up\n\nSort the imports of src/."
RESULT = 'Skill "tidy" completed (forked execution).\n\nResult:\nAll tidy.'
SUB_SYSTEM = "You are a sub-agent; answer with a short report."
SUMMARY = "All tidy."
CALL = {"skill": "tidy", "args": "src/"}


def tokens(text: str) -> int:
    return int(litellm_offline().token_counter(model=MODEL, text=text))


def _main(messages: list[dict[str, object]]) -> dict[str, object]:
    opening = [
        {
            "role": "user",
            "content": [{"type": "text", "text": REMINDER}, {"type": "text", "text": PROMPT}],
        },
        {"role": "system", "content": f"{ENVIRONMENT}\n\n{LISTING}"},
    ]
    return {
        "system": [{"type": "text", "text": SYSTEM}],
        "tools": [TOOL],
        "messages": opening + messages,
    }


def session() -> Session:
    call = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t1", "name": "Skill", "input": CALL}],
    }
    result = {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "t1", "content": RESULT}],
    }
    done = {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}
    follow = {"role": "user", "content": FOLLOW_UP}
    subagent = {
        "system": [{"type": "text", "text": SUB_SYSTEM}],
        "tools": [TOOL],
        "messages": [{"role": "user", "content": [{"type": "text", "text": BODY}]}],
    }
    path = "/v1/messages"
    requests = (
        SessionRequest(
            0,
            "main",
            Recorded(path, _main([])),
            Reply(tool="Skill", raw_arguments=json.dumps(CALL)),
        ),
        SessionRequest(0, "subagent", Recorded(path, subagent), Reply(text=SUMMARY)),
        SessionRequest(0, "main", Recorded(path, _main([call, result])), Reply(text="Done.")),
        SessionRequest(
            1, "main", Recorded(path, _main([call, result, done, follow])), Reply(text="Done.")
        ),
    )
    return Session(
        "claude-code", "test", (PROMPT, FOLLOW_UP), requests, Workspace(Path("h"), Path("p"))
    )


def marks() -> Marks:
    return Marks(
        api="anthropic-messages",
        listing=lambda body: LISTING,
        body_mark="# Tidy up",
        skill_tools=frozenset({"Skill"}),
        prompts=frozenset({PROMPT, FOLLOW_UP}),
    )


def test_every_part_of_the_two_turn_session() -> None:
    first, sub, second, third = attribute_session(session(), marks(), MODEL)
    agent = (
        tokens(SYSTEM) + tokens(json.dumps(TOOL)) + tokens(REMINDER) + tokens(f"{ENVIRONMENT}\n\n")
    )
    call = tokens(json.dumps({"name": "Skill", "input": CALL}))
    assert first.parts == {
        "agent": agent,
        "listing": tokens(LISTING),
        "conversation": tokens(PROMPT),
    }
    assert first.reply == tokens(json.dumps(CALL))
    assert sub.role == "subagent"
    assert sub.parts == {
        "subagent_prompt": tokens(SUB_SYSTEM) + tokens(json.dumps(TOOL)),
        "subagent_body": tokens(BODY),
    }
    assert sub.reply == tokens(SUMMARY)
    assert second.parts == {
        "agent": agent,
        "listing": tokens(LISTING),
        "conversation": tokens(PROMPT) + call,
        "skill_result": tokens(RESULT),
    }
    assert third.turn == 1
    assert third.parts == {
        "agent": agent,
        "listing": tokens(LISTING),
        "conversation": tokens(PROMPT) + call + tokens("Done.") + tokens(FOLLOW_UP),
        "skill_result": tokens(RESULT),
    }


def test_mode_cost_and_break_even_of_the_session() -> None:
    cost = mode_cost(attribute_session(session(), marks(), MODEL))
    prompt = tokens(SUB_SYSTEM) + tokens(json.dumps(TOOL))
    assert cost.subagent_prompt == prompt
    assert cost.subagent_body == cost.body == tokens(BODY)
    assert cost.summary_written == tokens(SUMMARY)
    assert cost.subagent_work == 0
    assert cost.fixed == prompt + tokens(BODY) + tokens(SUMMARY)
    assert cost.carried == (tokens(RESULT), tokens(RESULT))
    assert cost.total(2) == cost.fixed + 2 * tokens(RESULT)
    assert cost.total(5) == cost.fixed + 5 * tokens(RESULT)
    inline = type(cost)(0, (100, 100), 0, 0, 0, 0, 100)
    # fork(R) = fixed + R·result against 100·R: the first R where 100·R exceeds it
    expected = next(r for r in range(1, 10_000) if 100 * r > cost.fixed + r * tokens(RESULT))
    assert measured_break_even(inline, cost) == expected
    assert measured_break_even(type(cost)(0, (1,), 0, 0, 0, 0, 1), cost) is None


@pytest.mark.parametrize("mark", ["", "nowhere in the session"])
def test_without_the_body_mark_no_body_is_attributed(mark: str) -> None:
    m = marks()
    tokens_ = attribute_session(
        session(), Marks(m.api, m.listing, mark, m.skill_tools, m.prompts), MODEL
    )
    assert all(t["subagent_body"] == 0 and t["skill_body"] == 0 for t in tokens_)
    assert mode_cost(tokens_).body == 0


def test_a_body_line_quoted_in_the_listing_stays_listing() -> None:
    m = marks()
    quoted = Marks(m.api, m.listing, "Tidy files.", m.skill_tools, m.prompts)  # a line of LISTING
    first = attribute_session(session(), quoted, MODEL)[0]
    assert first["listing"] == tokens(LISTING) and first["skill_body"] == 0
