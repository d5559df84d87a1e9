"""The text of generated skills: phrases, front matter values, SKILL.md files."""

from __future__ import annotations

import json
import random

from skillbench.catalog import SourceKind
from skillbench.fuzz._types import FuzzFile, FuzzUnit

WORDS = (
    "review", "deploy", "triage", "lint", "cache", "audit", "index", "parse", "render",
    "migrate", "schema", "tokens", "budget", "queue", "retry", "shard", "trace", "build",
)  # fmt: skip
ODD = ("&", "<b>", "a'b", '"q"', "é", "🚀", "日本", "\\", "${x}", "{{y}}", "%s", "—", "  ")


def phrase(rng: random.Random, words: int = 2, odd: float = 0.0) -> str:
    """A few words, now and then one of ``ODD`` (XML specials, emoji, template holes)."""
    out = [rng.choice(ODD) if rng.random() < odd else rng.choice(WORDS) for _ in range(words)]
    return " ".join(out)


def name_value(rng: random.Random, name: str) -> str:
    """``name`` as a front matter value: plain when YAML reads it back unchanged (half of
    the time), else double-quoted."""
    plain_safe = name and name.strip() == name and not any(c in name for c in ":#'\"[]{},&*!|>%@`")
    return name if plain_safe and rng.random() < 0.5 else json.dumps(name, ensure_ascii=False)


def skill_text(name: str | None, description: str, rng: random.Random) -> str:
    """A SKILL.md: front matter with ``name`` (left out when None) and ``description`` (the
    field's YAML lines, see ``YAML_SHAPES``), then a body."""
    head = "" if name is None else f"name: {name_value(rng, name)}\n"
    return f"---\n{head}{description}---\n\n# {rng.choice(WORDS)}\n\nBody {phrase(rng, 3)}.\n"


def plain_description(rng: random.Random, odd: float = 0.0) -> str:
    return f"description: {json.dumps(phrase(rng, rng.randint(1, 8), odd), ensure_ascii=False)}\n"


def make_unit(
    scope: SourceKind, shape: str, folder: str, text: str, file: str = "SKILL.md"
) -> FuzzUnit:
    return FuzzUnit(scope, shape, (FuzzFile(f"{folder}/{file}", text.encode("utf-8")),))
