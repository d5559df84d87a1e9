"""What differs between two compared runs: their settings and their skills' descriptions.

Shown above the flipped decisions, so a reader sees the cause (a budget, a model, a rewritten
description) before its effects.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from skillbench.view._source import RunData

IGNORED = frozenset({"name", "output_dir"})
"""Settings that name a run rather than change what it measures."""


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """``{"usage": {"record": "label"}}`` → ``{"usage.record": "label"}``; lists by index."""
    if isinstance(value, Mapping):
        items: list[tuple[str, Any]] = [(str(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        items = [(str(i), v) for i, v in enumerate(value)]
    else:
        return {prefix: value}
    out: dict[str, Any] = {}
    for key, inner in items:
        out.update(flatten(inner, f"{prefix}.{key}" if prefix else key))
    return out


def word_diff(a: str, b: str) -> list[list[str]]:
    """``[op, text]`` segments turning ``a`` into ``b`` word by word (op: ``=``, ``-``, ``+``)."""
    left, right = re.findall(r"\S+|\s+", a), re.findall(r"\S+|\s+", b)
    out: list[list[str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, left, right).get_opcodes():
        if tag == "equal":
            out.append(["=", "".join(left[i1:i2])])
            continue
        if i2 > i1:
            out.append(["-", "".join(left[i1:i2])])
        if j2 > j1:
            out.append(["+", "".join(right[j1:j2])])
    return out


def run_diff(a: RunData, b: RunData) -> dict[str, Any]:
    """The settings whose values differ (``[key, A, B]``, a missing side ``None``) and the
    skills whose descriptions differ (``[name, word diff]``)."""
    left, right = flatten(dict(a.settings)), flatten(dict(b.settings))
    settings = [
        [key, left.get(key), right.get(key)]
        for key in sorted(left.keys() | right.keys())
        if key.split(".", 1)[0] not in IGNORED and left.get(key) != right.get(key)
    ]
    skills = [
        [name, word_diff(a.descriptions.get(name, ""), b.descriptions.get(name, ""))]
        for name in sorted(a.descriptions.keys() | b.descriptions.keys())
        if a.descriptions.get(name) != b.descriptions.get(name)
    ]
    return {"settings": settings, "descriptions": skills}
