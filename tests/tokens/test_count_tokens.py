"""``count_tokens`` counts exactly as ``litellm.token_counter`` does, for every tokenizer path."""

from __future__ import annotations

import pytest

from skillbench.tokens import count_tokens, litellm_offline

TEXTS = [
    "Write a clear git commit message for the staged changes.",
    "<available_skills>\n" + "- deploy: Deploy the service to production.\n" * 400,
    "naïve café — 日本語のテキスト 🙂 " * 50,
    "x" * 250_000,  # long enough for litellm's sampled extrapolation
]


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-3.5-turbo", "claude-sonnet-4-5"])
@pytest.mark.parametrize("text", TEXTS, ids=["short", "listing", "unicode", "huge"])
def test_count_matches_litellm_token_counter(model: str, text: str) -> None:
    litellm = litellm_offline()
    assert count_tokens(text, model) == litellm.token_counter(model=model, text=text)


def test_empty_text_has_no_tokens() -> None:
    assert count_tokens("") == 0


def test_special_token_strings_count_as_text() -> None:
    text = "end <|endoftext|> of <|fim_prefix|> text"
    assert count_tokens(text, "gpt-4o") == litellm_offline().token_counter(
        model="gpt-4o", text=text
    )


def test_cost_map_is_litellms() -> None:
    """The cost map read from litellm's package folder holds litellm's prices."""
    from skillbench.tokens import cost_map

    table = litellm_offline().model_cost
    fields = ("input_cost_per_token", "output_cost_per_token", "cache_read_input_token_cost")
    assert table.keys() <= cost_map().keys()
    for name, entry in table.items():
        assert [cost_map()[name].get(f) for f in fields] == [entry.get(f) for f in fields], name
