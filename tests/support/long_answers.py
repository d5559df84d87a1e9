"""A run whose model answers two requests with 20 MB each, for the bounded-answer tests and
``benchmarks/long_answer_bench.py``.

``[[huge-text]]`` in a request gets 20,000,000 characters of plain text and no tool call (the
model abstains); ``[[huge-args]]`` gets a Skill call naming the best-matching listed skill
with a 20,000,000-character ``args`` string. Every other request gets the fake server's
default answer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from support.fake_openai import default_policy, overlap_choice, user_text

HUGE_CHARS = 20_000_000
HUGE_TEXT = ("The answer goes on. " * (HUGE_CHARS // 20))[:HUGE_CHARS]
FILLER = ("x" * HUGE_CHARS)[:HUGE_CHARS]

SKILLS = {
    "pdf-merge": "Merge several PDF files into one document.",
    "git-commit": "Write a commit message for staged changes.",
    "weather": "Report the weather forecast for a city.",
}
REQUESTS = [
    {"id": "chatty", "text": "what is 2 + 2 [[huge-text]]", "expected": None},
    {"id": "bulky", "text": "merge the pdf files [[huge-args]]", "expected": "pdf-merge"},
    {"id": "plain", "text": "write a git commit message", "expected": "git-commit"},
    {"id": "city", "text": "weather in Paris tomorrow", "expected": "weather"},
]
KEY_ENV = "SKILLBENCH_LONG_ANSWER_KEY"


def huge_arguments(skill: str) -> str:
    """The Skill call's arguments text the server sends for ``[[huge-args]]``."""
    return json.dumps({"skill": skill, "args": FILLER})


def long_answer_policy(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
    text = user_text(body)
    if body.get("tools") and "[[huge-text]]" in text:
        return HUGE_TEXT
    if body.get("tools") and "[[huge-args]]" in text:
        return [("Skill", huge_arguments(overlap_choice(body) or "none"))]
    return default_policy(body)


def write_long_answer_project(root: Path, base_url: str, **config: Any) -> Path:
    """Skills, requests and a one-cell litellm run config under ``root``; returns the config.
    Set ``KEY_ENV`` to any value before running it."""
    for name, description in SKILLS.items():
        folder = root / "skills" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nDo it.\n", encoding="utf-8"
        )
    with (root / "requests.jsonl").open("w", encoding="utf-8") as fh:
        for request in REQUESTS:
            fh.write(json.dumps(request) + "\n")
    selector = {
        "type": "litellm",
        "name": "model",
        "model": "openai/gpt-4o-mini",
        "api_base": base_url,
        "api_key_env": KEY_ENV,
        "backoff_s": 0.01,
        "max_attempts": 2,
        "timeout": 60,
    }
    body = {
        "name": "long-answers",
        "catalogs": {"base": ["skills"]},
        "requests": "requests.jsonl",
        "budgets": [4000],
        "selectors": [selector],
        **config,
    }
    path = root / "config.yaml"
    path.write_text(json.dumps(body), encoding="utf-8")
    return path
