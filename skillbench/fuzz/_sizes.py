"""Size and budget shapes: 1 to 5,000 skills, descriptions of 0 to 10,000 characters, the
agent's budget variable and usage history, each in a capture of its own."""

from __future__ import annotations

import json
import math
import random

from skillbench.agentspec import AgentSpec
from skillbench.catalog import SourceKind
from skillbench.fuzz._text import WORDS, skill_text
from skillbench.fuzz._types import FuzzCase, FuzzFile, FuzzUnit

MAX_SKILLS = 5000
MAX_DESCRIPTION = 10_000


def long_text(rng: random.Random, chars: int, lines: bool) -> str:
    """About ``chars`` characters of words (cut to exactly ``chars``), with line breaks
    now and then when ``lines``."""
    parts: list[str] = []
    size = 0
    while size < chars:
        word = rng.choice(WORDS)
        sep = "\n" if lines and rng.random() < 0.08 else " "
        parts.append(word + sep)
        size += len(word) + 1
    return "".join(parts)[:chars].rstrip()


def _description(rng: random.Random, chars: int) -> str:
    text = long_text(rng, chars, lines=rng.random() < 0.4)
    if "\n" in text:
        body = "\n".join(f"  {line}" if line else "" for line in text.split("\n"))
        return f"description: |-\n{body}\n"
    return f"description: {json.dumps(text, ensure_ascii=False)}\n"


def _draw(rng: random.Random, kind: str) -> tuple[int, int]:
    """How many skills and the longest description."""
    if kind == "many":
        return int(10 ** rng.uniform(0, math.log10(MAX_SKILLS))), rng.choice([0, 40, 200])
    if kind == "long":
        return rng.randint(1, 20), rng.randint(0, MAX_DESCRIPTION)
    return rng.randint(10, 400), rng.randint(0, 2000)


def fuzz_scopes(spec: AgentSpec) -> tuple[SourceKind, ...]:
    """The scopes a catalog is installed as: each folder the record marks for installing,
    one scope per distinct folder (two scopes sharing a folder would be one place)."""
    first = {f.path: f.scope for f in reversed(spec.folders) if f.install}
    return tuple(dict.fromkeys(reversed(first.values())))


def size_case(spec: AgentSpec, index: int, kind: str, rng: random.Random) -> FuzzCase:
    """A case of its own capture: many skills, long descriptions or both, under a drawn
    budget (the agent's budget variable) and usage history (where it keeps one)."""
    count, longest = _draw(rng, kind)
    scopes = fuzz_scopes(spec)
    units: list[FuzzUnit] = []
    names: list[str] = []
    for j in range(count):
        name = f"f{index:03d}-s{j:04d}-{rng.choice(WORDS)}"
        names.append(name)
        text = skill_text(name, _description(rng, rng.randint(0, longest)), rng)
        units.append(
            FuzzUnit(
                rng.choice(scopes), f"size:{kind}", (FuzzFile(f"{name}/SKILL.md", text.encode()),)
            )
        )
    env: dict[str, str] = {}
    variable = spec.launch.budget_variable
    if variable and rng.random() < 0.7:
        env[variable] = str(
            rng.choice([rng.randint(1, 300), rng.randint(300, 8000), rng.randint(8000, 200_000)])
        )
    usage: dict[str, int] = {}
    if spec.launch.keeps_usage and names:
        usage = {
            n: rng.randint(1, 60) for n in rng.sample(names, min(len(names), rng.randint(0, 8)))
        }
    return FuzzCase(index, f"size:{kind}", tuple(units), alone=True, env=env, usage=usage)
