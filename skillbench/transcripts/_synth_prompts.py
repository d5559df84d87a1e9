"""What synthesis asks the model, and how its answers are read back.

The model sees a skill's name, description and ``when_to_use``, never its body, so the
requests it writes describe a user's need instead of paraphrasing the instructions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from skillbench.catalog import Skill

Tag = Literal["normal", "boundary", "abnormal", "near-miss"]
POSITIVE_TAGS: tuple[Tag, ...] = ("normal", "boundary", "abnormal")

SYSTEM = (
    "You write realistic messages that developers type to an AI coding agent. "
    "Answer with one JSON object and nothing else."
)

_POSITIVE = """\
A coding agent has a skill named {name!r}:
  description: {description}
{when}
Write {n} messages a user might type for which this skill is the right one, for each kind:
  normal: a plain, typical request;
  boundary: an unusual but still valid case, at the edge of what the skill covers;
  abnormal: terse, misspelt, mixed with unrelated chatter or in another language.
Phrase them as the user would: state the need, never the skill's name or its wording.
Answer {{"requests": [{{"kind": "normal" | "boundary" | "abnormal", "text": "..."}}]}}."""

_NEAR_MISS = """\
A coding agent has a skill named {name!r} ({description}) and similar skills:
{rivals}
Write {n} messages a user might type that sound close to {name!r} but that none of these
skills should handle: the need is different, only the topic or words are shared.
Never name a skill. Answer {{"requests": [{{"text": "..."}}]}}."""


class Generated(NamedTuple):
    """One request the model wrote, with the label its prompt implies."""

    text: str
    tag: Tag


def positive_prompt(skill: Skill, n: int) -> list[dict[str, str]]:
    when = f"  when to use: {skill.when_to_use}" if skill.when_to_use else ""
    user = _POSITIVE.format(name=skill.name, description=skill.description, when=when, n=n)
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def near_miss_prompt(skill: Skill, rivals: Sequence[Skill], n: int) -> list[dict[str, str]]:
    listed = "\n".join(f"  - {r.name}: {r.description}" for r in rivals) or "  (none)"
    user = _NEAR_MISS.format(name=skill.name, description=skill.description, rivals=listed, n=n)
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")


def parse_answer(content: Any, near_miss: bool) -> list[Generated]:
    """The requests in a model's answer.

    Raises:
        ValueError: the answer is not the JSON object asked for.
    """
    if not isinstance(content, str):
        raise ValueError("the answer has no text")
    try:
        data = json.loads(_FENCE.sub("", content.strip()))
    except json.JSONDecodeError as exc:
        raise ValueError(f"the answer is not JSON: {exc.msg}") from None
    items = data.get("requests") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise ValueError("the answer has no 'requests' list")
    found: list[Generated] = []
    for item in items:
        text = item.get("text") if isinstance(item, dict) else None
        if not isinstance(text, str) or not text.strip():
            continue
        kind = item.get("kind")
        tag: Tag = "near-miss" if near_miss else kind if kind in POSITIVE_TAGS else "normal"
        found.append(Generated(" ".join(text.split()), tag))
    if not found:
        raise ValueError("the answer holds no request text")
    return found
