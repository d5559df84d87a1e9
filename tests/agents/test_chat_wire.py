"""The recorder's OpenAI chat completions wire, read back by the official ``openai`` client."""

from __future__ import annotations

import json

import openai

from skillbench.agents import Recorder, Reply


def _client(base_url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url + "/v1", api_key="k", max_retries=0, timeout=10)


def test_a_streamed_tool_call_and_its_usage() -> None:
    reply = Reply(tool="skill", raw_arguments=json.dumps({"skill": "pdf"}), input_tokens=7)
    with Recorder(lambda _: reply) as rec:
        stream = _client(rec.base_url).chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": "hi"}],
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = list(stream)
    deltas = [choice.delta for chunk in chunks for choice in chunk.choices]
    calls = [(c.function.name, c.function.arguments) for d in deltas for c in d.tool_calls or ()]
    assert calls == [("skill", '{"skill": "pdf"}')]
    finishes = [choice.finish_reason for chunk in chunks for choice in chunk.choices]
    assert finishes[-1] == "tool_calls"
    usage = [chunk.usage for chunk in chunks if chunk.usage is not None]
    assert [(u.prompt_tokens, u.completion_tokens) for u in usage] == [(7, 1)]
    assert rec.requests[0].path == "/v1/chat/completions"
    assert rec.requests[0].body["messages"] == [{"role": "user", "content": "hi"}]


def test_a_streamed_text_and_a_plain_completion() -> None:
    with Recorder(lambda _: Reply(text="fine")) as rec:
        client = _client(rec.base_url)
        messages = [{"role": "user", "content": "hi"}]
        stream = client.chat.completions.create(model="m", messages=messages, stream=True)
        text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
        plain = client.chat.completions.create(model="m", messages=messages)
    assert text == "fine"
    assert plain.choices[0].message.content == "fine"
    assert plain.choices[0].finish_reason == "stop"
    assert len(rec.requests) == 2
