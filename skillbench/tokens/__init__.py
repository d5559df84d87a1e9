"""Token counts with litellm's offline tokenizers, cached per (model, text).

litellm is imported on first use (it takes seconds) and configured for offline work:
the bundled cost map and no Hugging Face tokenizer downloads.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

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


@lru_cache(maxsize=200_000)
def count_tokens(text: str, model: str = DEFAULT_TOKEN_MODEL) -> int:
    """Tokens in ``text`` as ``model``'s tokenizer counts them (no chat-message overhead)."""
    if not text:
        return 0
    litellm = litellm_offline()
    return int(litellm.token_counter(model=model, text=text))


__all__ = ["DEFAULT_TOKEN_MODEL", "count_tokens", "litellm_offline"]
