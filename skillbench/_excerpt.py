"""Bounded excerpts of what a model sends, so a decision's ``detail`` stays small.

A model (or an agent) may answer with megabytes: a 20 MB text, a tool call whose arguments
are a novel, thousands of tool calls. The decision is read from the whole answer first; what
the row keeps is bounded: a string longer than ``TEXT_LIMIT`` characters becomes an
*excerpt* (its head and tail, its size in bytes and its SHA-256), and a value still larger
than ``VALUE_LIMIT`` after that becomes an excerpt of its JSON. Results, exports and pages
then stay small whatever a model sends; ``keep_raw_answers: true`` (``run --keep-raw``)
keeps answers whole, and the digest says whether a cached or kept answer is the one scored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

TEXT_LIMIT = 16_384
"""Characters of one string kept whole (every real tool call and most text answers)."""

VALUE_LIMIT = 65_536
"""Characters (of strings and keys) one ``detail`` value may hold once its long strings are
excerpts; past it the whole value is kept as an excerpt of its JSON."""

HEAD_CHARS = 2_048
TAIL_CHARS = 512


def excerpt(text: str, *, of_json: bool = False) -> dict[str, Any]:
    """``text`` as its head and tail, size in bytes (UTF-8) and SHA-256; ``of_json`` marks
    the text as the JSON of a value that was too large."""
    data = text.encode("utf-8", "surrogatepass")
    out: dict[str, Any] = {
        "excerpt": True,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "head": text[:HEAD_CHARS],
        "tail": text[-TAIL_CHARS:] if len(text) > HEAD_CHARS else "",
    }
    if of_json:
        out["json"] = True
    return out


def is_excerpt(value: object) -> bool:
    return isinstance(value, Mapping) and value.get("excerpt") is True and "sha256" in value


def as_text(value: object) -> str:
    """A detail value read as text: an excerpt's head and tail around a note of what was
    left out, a string as it is, anything else as ``str``."""
    if not is_excerpt(value):
        return value if isinstance(value, str) else str(value)
    assert isinstance(value, Mapping)
    note = (
        f"[… {value['bytes']:,} bytes in all, sha256 {value['sha256']}; the middle is left out …]"
    )
    return f"{value['head']}\n{note}\n{value['tail']}"


def _size(value: Any, cap: int) -> int:
    """Characters of the strings and keys in ``value`` (1 for any other scalar), counted up
    to just past ``cap``."""
    total, stack = 0, [value]
    while stack and total <= cap:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, Mapping):
            total += sum(len(str(k)) for k in item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            total += 1
            stack.extend(item)
        else:
            total += 1
    return total


def _shrink(value: Any) -> Any:
    """``value`` with every string past ``TEXT_LIMIT`` made an excerpt."""
    if isinstance(value, str):
        return excerpt(value) if len(value) > TEXT_LIMIT else value
    if isinstance(value, Mapping):
        return {k: _shrink(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_shrink(v) for v in value]
    return value


def bounded(value: Any) -> Any:
    """``value`` as a decision's detail keeps it: strings past ``TEXT_LIMIT`` as excerpts,
    and the whole value as an excerpt of its JSON when it is still past ``VALUE_LIMIT``."""
    shrunk = _shrink(value)
    if _size(shrunk, VALUE_LIMIT) <= VALUE_LIMIT:
        return shrunk
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return excerpt(text, of_json=True)


def bounded_detail(detail: Mapping[str, Any]) -> dict[str, Any]:
    """Every value of a decision's ``detail`` bounded (see the module docstring)."""
    return {key: bounded(value) for key, value in detail.items()}
