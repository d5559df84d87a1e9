"""What a decision keeps of a model's answer: small values whole, long strings as excerpts
(head, tail, UTF-8 size, SHA-256), and a value too large even then as an excerpt of its JSON."""

from __future__ import annotations

import hashlib
import json

from support.rows import result_row

from skillbench._excerpt import (
    HEAD_CHARS,
    TAIL_CHARS,
    TEXT_LIMIT,
    VALUE_LIMIT,
    as_text,
    bounded,
    bounded_detail,
)


def test_small_values_are_kept_as_they_are() -> None:
    detail = {
        "model": "m",
        "usage": {"prompt_tokens": 10},
        "calls": [{"name": "Skill", "arguments": '{"skill": "a"}'}],
        "text": "é" * TEXT_LIMIT,
        "trigger_call": 0,
    }
    assert bounded_detail(detail) == detail


def test_a_long_string_keeps_its_head_tail_size_and_digest() -> None:
    # Two-byte characters: the size is in UTF-8 bytes, not characters.
    text = "é" * (TEXT_LIMIT + 1) + "end"
    kept = bounded(text)
    assert kept == {
        "excerpt": True,
        "bytes": 2 * (TEXT_LIMIT + 1) + 3,
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "head": "é" * HEAD_CHARS,
        "tail": "é" * (TAIL_CHARS - 3) + "end",
    }


def test_nested_long_strings_become_excerpts_in_place() -> None:
    arguments = json.dumps({"skill": "a", "args": "x" * 100_000})
    response = {"choices": [{"message": {"role": "assistant", "content": None}}], "id": "c"}
    response["choices"][0]["message"]["tool_calls"] = [{"function": {"arguments": arguments}}]
    kept = bounded(response)
    call = kept["choices"][0]["message"]["tool_calls"][0]["function"]
    assert call["arguments"]["bytes"] == len(arguments)
    assert call["arguments"]["head"] == arguments[:HEAD_CHARS]
    assert kept["id"] == "c" and kept["choices"][0]["message"]["role"] == "assistant"


def test_many_small_items_become_an_excerpt_of_their_json() -> None:
    calls = [{"name": "read", "arguments": '{"path": "a"}'} for _ in range(VALUE_LIMIT)]
    kept = bounded(calls)
    text = json.dumps(calls, ensure_ascii=False, sort_keys=True)
    assert kept["json"] is True and kept["bytes"] == len(text.encode())
    assert kept["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert kept["head"] == text[:HEAD_CHARS] and kept["tail"] == text[-TAIL_CHARS:]


def test_an_excerpted_error_reads_as_text() -> None:
    message = "upstream said: " + "<html>" * 10_000
    row = result_row(outcome="error", detail=bounded_detail({"error": message}))
    assert row.error is not None
    assert row.error.startswith(message[:HEAD_CHARS] + "\n[… 60,015 bytes in all, sha256 ")
    assert row.error.endswith(message[-TAIL_CHARS:]) and row.error == as_text(row.detail["error"])
