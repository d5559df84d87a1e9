"""Broken answers are classified for what they are, not scored as misses or retried blindly."""

from __future__ import annotations

from llm_helpers import calls, queries
from support.fake_openai import FakeOpenAI, user_text


def sent(fake: FakeOpenAI, marker: str) -> int:
    return sum(marker in user_text(b) for b in calls(fake.bodies))


def test_an_empty_choices_list_is_an_error_kept_with_its_response(
    make_selector, fake: FakeOpenAI
) -> None:
    (d,) = make_selector().select(queries(["merge pdf files [[nochoices]]"]))
    assert d.kind == "error" and d.detail["error"] == "the response has no choices"
    assert d.detail["response"]["choices"] == [] and d.detail["usage"]["prompt_tokens"] > 0
    # Not cached: a second run asks again instead of replaying the failure.
    make_selector().select(queries(["merge pdf files [[nochoices]]"]))
    assert sent(fake, "[[nochoices]]") == 2


def test_a_tool_call_without_a_function_is_malformed_at_once(
    make_selector, fake: FakeOpenAI
) -> None:
    (d,) = make_selector(max_attempts=5).select(queries(["merge pdf files [[nofunction]]"]))
    assert d.kind == "malformed" and sent(fake, "[[nofunction]]") == 1
    assert d.detail["error"] == "tool call without a function name"
    assert d.detail["response"]["choices"][0]["message"]["tool_calls"][0]["id"] == "call_0"


def test_a_function_without_a_name_is_malformed(make_selector, fake: FakeOpenAI) -> None:
    (d,) = make_selector().select(queries(["merge pdf files [[noname]]"]))
    assert d.kind == "malformed" and sent(fake, "[[noname]]") == 1
    assert d.detail["calls"] == [
        {"name": "", "arguments": "{}", "error": "tool call without a function name"}
    ]


def test_garbage_bodies_are_errors_after_bounded_retries(make_selector) -> None:
    with FakeOpenAI() as server:
        answer = server._answer

        def garbage(body, auth, *_):  # the pre-flight is answered properly
            if "[[garbage]]" in user_text(body):
                with server._lock:
                    server.requests += 1
                    server.bodies.append(body)
                return 200, {}, {"object": "not a completion"}
            return answer(body, auth, *_)

        server._answer = garbage  # type: ignore[method-assign]
        (d,) = make_selector(api_base=server.base_url).select(queries(["pdf [[garbage]]"]))
        assert d.kind == "error" and d.detail["attempts"] == 3
        assert "no 'choices'" in d.detail["error"] and len(calls(server.bodies)) == 3


def test_transient_failures_still_retry_and_time_out(make_selector, fake: FakeOpenAI) -> None:
    decisions = make_selector(timeout=0.5).select(
        queries(["weather [[429:2]]", "merge pdf [[slow:9]]"])
    )
    retried, slow = decisions
    assert (retried.kind, retried.detail["attempts"]) == ("invoke", 3)
    assert slow.kind == "error" and slow.detail["status"] == 408 and slow.detail["attempts"] == 3
