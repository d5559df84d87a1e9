"""Cache keys: a hash of everything that decides a model's answer, nothing that does not."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.types import JsonValue

CACHE_VERSION = 1
"""Bump when the stored entry format or the key material changes: old entries then miss."""


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace, so equal data always gives equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def cache_key(
    *,
    model: str,
    api_base: str | None,
    messages: Sequence[Mapping[str, JsonValue]],
    tools: Sequence[Mapping[str, JsonValue]] | None,
    tool_choice: JsonValue,
    params: Mapping[str, JsonValue],
    repeat: int,
) -> str:
    """sha256 of the canonical JSON of the request (the API key is never part of it).

    The repeat index is included so ``repeats: k`` with temperature > 0 samples k answers
    instead of replaying one; everything else equal, identical prompts share one entry.
    """
    material = {
        "v": CACHE_VERSION,
        "model": model,
        "api_base": api_base,
        "messages": list(messages),
        "tools": list(tools or []),
        "tool_choice": tool_choice,
        "params": dict(params),
        "repeat": repeat,
    }
    return hashlib.sha256(canonical_json(material).encode("utf-8")).hexdigest()
