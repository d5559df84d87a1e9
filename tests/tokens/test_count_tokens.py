"""``count_tokens`` counts exactly as ``litellm.token_counter`` does, for every tokenizer path."""

from __future__ import annotations

import json
import subprocess
import sys

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
    """The cost map read from litellm's package folder holds litellm's prices, compared with
    a freshly imported litellm (other tests register models into this process's table)."""
    code = (
        "import json, os; os.environ['LITELLM_LOCAL_MODEL_COST_MAP'] = 'True'; import litellm;"
        "from skillbench.tokens import cost_map; ours = cost_map();"
        "f = ('input_cost_per_token', 'output_cost_per_token', 'cache_read_input_token_cost');"
        "bad = [n for n, e in litellm.model_cost.items()"
        " if n not in ours or [ours[n].get(k) for k in f] != [e.get(k) for k in f]];"
        "print(json.dumps([len(litellm.model_cost), bad[:5]]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    count, bad = json.loads(done.stdout.strip().splitlines()[-1])
    assert count > 1000 and bad == []
