"""litellm's bundled data (tiktoken files, cost map) read without importing litellm.

Importing litellm takes seconds; commands that only count listing tokens or look up a price
(``render``, ``cost``, ``catalog``) read the same files directly, so they start at once.
Counts and prices stay those litellm gives: the tests compare them with
``litellm.token_counter`` and ``litellm.model_cost``.
"""

from __future__ import annotations

import importlib.util
import json
import os
from functools import cache
from pathlib import Path
from typing import Any, TypedDict

COST_MAP = "model_prices_and_context_window_backup.json"
CHUNK_CHARS = 1024
"""litellm encodes text in pieces this long and adds up their counts."""
EXACT_CHARS = 4_000_000
"""Longer texts litellm counts by sampling; those go through litellm itself."""
TUNING = ("TIKTOKEN_ENCODE_CHUNK_SIZE_CHARS", "TOKEN_COUNTER_MAX_EXACT_CHARS")
"""litellm's variables that change the two numbers above: when set, litellm counts."""


@cache
def litellm_dir() -> Path:
    """The installed litellm package folder (found, not imported)."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("litellm is not installed", name="litellm")
    return Path(next(iter(spec.submodule_search_locations)))


class ModelCost(TypedDict, total=False):
    """One model's entry of litellm's cost map: the fields skillbench reads (an entry holds
    more, and any of these may be missing)."""

    input_cost_per_token: float
    output_cost_per_token: float
    cache_read_input_token_cost: float
    cache_creation_input_token_cost: float
    max_input_tokens: int
    max_output_tokens: int
    litellm_provider: str
    mode: str


@cache
def cost_map() -> dict[str, ModelCost]:
    """The offline cost map litellm loads with ``LITELLM_LOCAL_MODEL_COST_MAP=True``: model
    name → its prices and limits."""
    data: dict[str, ModelCost] = json.loads((litellm_dir() / COST_MAP).read_text(encoding="utf-8"))
    return data


def price_per_token(model: str) -> tuple[float, float] | None:
    """``model``'s list price per prompt and per completion token (a ``provider/`` prefix
    is tried without it too); None when the bundled map has no price for it."""
    known = cost_map()
    entry = known.get(model) or known.get(model.split("/", 1)[-1])
    if not entry or "input_cost_per_token" not in entry:
        return None
    return entry["input_cost_per_token"], entry.get("output_cost_per_token", 0.0)


def encoding_name(model: str) -> str | None:
    """The tiktoken encoding litellm counts ``model`` with, when tiktoken names the model
    exactly (None: litellm's own resolution decides)."""
    from tiktoken.model import MODEL_TO_ENCODING

    if any(name in os.environ for name in TUNING):
        return None
    if "gpt-4o" in model:
        return "o200k_base"
    return MODEL_TO_ENCODING.get(model)


@cache
def encoding(name: str) -> Any:
    """The tiktoken encoding ``name`` from the files litellm ships (no download)."""
    os.environ["TIKTOKEN_CACHE_DIR"] = os.environ.get("CUSTOM_TIKTOKEN_CACHE_DIR") or str(
        litellm_dir() / "litellm_core_utils" / "tokenizers"
    )
    import tiktoken

    return tiktoken.get_encoding(name)
