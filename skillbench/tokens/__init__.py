"""Token counts with litellm's offline tokenizers, cached per (model, text).

Models tiktoken names (the default ``gpt-4o`` among them) are counted with the tiktoken files
litellm ships, without importing litellm; any other model goes through litellm, imported on
first use (it takes seconds) and configured for offline work: the bundled cost map and no
Hugging Face tokenizer downloads.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from skillbench.tokens._bundled import (
    CHUNK_CHARS,
    EXACT_CHARS,
    ModelCost,
    cost_map,
    encoding,
    encoding_name,
    price_per_token,
)

DEFAULT_TOKEN_MODEL = "gpt-4o"
"""A common chat model whose tokenizer (o200k) litellm ships in its wheel."""


def litellm_offline() -> Any:
    """Import litellm configured to never reach the network for cost maps or tokenizers."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import litellm

    litellm.disable_hf_tokenizer_download = True
    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm


@cache
def _litellm_counter(model: str) -> Callable[[str], int]:
    """The function ``litellm.token_counter(model=model, text=...)`` counts text with.

    ``token_counter`` selects the tokenizer and loads its encoding on every call, which cost
    more than the counting itself; the pinned litellm builds that function in
    ``_get_count_function``, so it is built once per model here and the counts stay the same.
    """
    litellm_offline()
    from litellm.litellm_core_utils.token_counter import _get_count_function

    count: Callable[[str], int] = _get_count_function(model)
    return count


@cache
def _counter(model: str) -> Callable[[str], int]:
    """``_litellm_counter(model)``, but for a tiktoken model without importing litellm: the
    encoding's counts of ordinary text (special-token strings count as text) summed over
    ``CHUNK_CHARS`` pieces, as litellm counts."""
    name = encoding_name(model)
    if name is None:
        return _litellm_counter(model)
    tokenizer = encoding(name)

    def count(text: str) -> int:
        if len(text) > EXACT_CHARS:  # litellm extrapolates from samples past this length
            return _litellm_counter(model)(text)
        pieces = (text[i : i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS))
        return sum(len(tokenizer.encode_ordinary(piece)) for piece in pieces)

    return count


def estimate_usd(model: str, prompt: int, completion: int) -> float | None:
    """Dollars for these token counts at the bundled list price; None when unpriced."""
    price = price_per_token(model)
    if price is None:
        return None
    return prompt * price[0] + completion * price[1]


def model_tokens(text: str, model: str) -> int:
    """Tokens of ``text`` with ``model``'s tokenizer when litellm knows it, else gpt-4o's."""
    try:
        return count_tokens(text, model)
    except Exception:
        return count_tokens(text, DEFAULT_TOKEN_MODEL)


@lru_cache(maxsize=200_000)
def count_tokens(text: str, model: str = DEFAULT_TOKEN_MODEL) -> int:
    """Tokens in ``text`` as ``model``'s tokenizer counts them (no chat-message overhead)."""
    if not text:
        return 0
    return int(_counter(model)(text))


__all__ = [
    "DEFAULT_TOKEN_MODEL",
    "ModelCost",
    "cost_map",
    "count_tokens",
    "estimate_usd",
    "litellm_offline",
    "model_tokens",
]
