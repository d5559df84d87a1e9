"""Shared test data: a tiny catalog, queries on its listings and a run project on disk."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from support.fake_openai import billed_prompt_tokens

from skillbench.catalog import Skill
from skillbench.dataset import LabelledRequest
from skillbench.listing import Listing, render_listing
from skillbench.selectors import Query
from skillbench.selectors._litellm import PROBE_TEXT
from skillbench.tokens import litellm_offline

KEY_ENV = "SKILLBENCH_TEST_KEY"
SECRET = "sk-test-0123456789-SECRET"
MODEL = "openai/gpt-4o-mini"
"""A model litellm prices offline, so spend and max_cost_usd are exercised."""

SKILLS = [
    Skill("pdf-merge", "Merge several PDF files into one document.", path="/sk/pdf-merge/SKILL.md"),
    Skill(
        "git-commit", "Write a commit message for staged changes.", path="/sk/git-commit/SKILL.md"
    ),
    Skill("weather", "Report the weather forecast for a city.", path="/sk/weather/SKILL.md"),
]


MAX_TOKENS = 64
"""``max_tokens`` of the spend tests: each call's completion ceiling."""


def price(prompt: int, completion: int) -> float:
    """Dollars for these tokens at litellm's list price for ``MODEL``."""
    info = litellm_offline().model_cost[MODEL.split("/", 1)[1]]
    return prompt * info["input_cost_per_token"] + completion * info["output_cost_per_token"]


def worst_case(body: Mapping[str, Any]) -> float:
    """A request's worst case: its prompt as the server bills it plus ``MAX_TOKENS``."""
    return price(billed_prompt_tokens(body), MAX_TOKENS)


def is_probe(body: Mapping[str, Any]) -> bool:
    """A pre-flight request (the selector sends one before its first uncached call)."""
    return any(m.get("content") == PROBE_TEXT for m in body.get("messages", []))


def calls(bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The requests a server received, without pre-flight probes."""
    return [b for b in bodies if not is_probe(b)]


def spend_cap(make_selector: Any, fake: Any, cache_dir: Path, text: str, requests: float) -> float:
    """A cap of ``requests`` worst-case requests, sized from one uncapped call of ``text`` with
    its own cache; the server's log is cleared afterwards."""
    sizer = make_selector(
        api_base=fake.base_url, cache_dir=cache_dir, params={"max_tokens": MAX_TOKENS}
    )
    sizer.select(queries([text]))
    cap: float = requests * worst_case(calls(fake.bodies)[0])
    fake.reset()
    return cap


def listing(profile: str = "codebot", skills: list[Skill] = SKILLS) -> Listing:
    return render_listing(skills, profile=profile, ordering="alpha")


def queries(texts: list[str], profile: str = "codebot", repeat: int = 0) -> list[Query]:
    shown = listing(profile)
    return [Query(LabelledRequest(f"r{i}", t), shown, repeat) for i, t in enumerate(texts)]


def fake_selector(base_url: str, **params: Any) -> dict[str, Any]:
    """A ``litellm`` selector config aimed at the fake server, with fast retries."""
    return {
        "type": "litellm",
        "name": "fake",
        "model": MODEL,
        "api_base": base_url,
        "api_key_env": KEY_ENV,
        "backoff_s": 0.01,
        "max_attempts": 3,
        **params,
    }


def write_project(
    root: Path, requests: list[Mapping[str, Any]], selector: Mapping[str, Any], **config: Any
) -> Path:
    """A catalog folder, a requests file and a run config under ``root``; returns the config."""
    for skill in SKILLS:
        folder = root / "skills" / skill.name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {skill.name}\ndescription: {skill.description}\n---\nDo it.\n",
            encoding="utf-8",
        )
    with (root / "requests.jsonl").open("w", encoding="utf-8") as f:
        for r in requests:
            f.write(json.dumps(r) + "\n")
    body = {
        "name": "llm",
        "catalogs": {"base": ["skills"]},
        "requests": "requests.jsonl",
        "selectors": [dict(selector)],
        **config,
    }
    path = root / "config.yaml"
    path.write_text(json.dumps(body), encoding="utf-8")
    return path


def wait_for(predicate: Callable[[], bool], seconds: float) -> bool:
    """Whether ``predicate`` holds within ``seconds`` (polled every 0.1 s)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


# The proxy and live-progress tests' grid: four codebot budgets over SKILLS listed
# alphabetically (200 characters list none, 250 git-commit, 300 also pdf-merge, 400 all
# three) and 48 requests, 12 per skill and 12 needing none.
TEXTS = {
    "pdf-merge": [
        "merge these pdf files into one document",
        "merge several pdf files please",
        "combine the pdf files into one document",
        "merge pdf files from the scan",
        "please merge the two pdf files",
        "merge all pdf documents into one",
    ],
    "git-commit": [
        "write a commit message for my staged changes",
        "write the commit message",
        "commit message for the staged changes",
        "write a good commit message",
        "staged changes need a commit message",
        "draft a commit message for changes",
    ],
    "weather": [
        "weather forecast for Paris",
        "report the weather for Berlin",
        "what is the weather forecast for a city",
        "weather forecast tomorrow for Rome",
        "city weather report please",
        "forecast the weather in Oslo",
    ],
    None: [
        "what is 2 + 2",
        "tell me a joke",
        "translate hello to french",
        "sort this list",
        "how old is the moon",
        "say hi",
    ],
}
REQUESTS = [
    {"id": f"{skill or 'none'}-{j}", "text": text + (" now" if j >= 6 else ""), "expected": skill}
    for skill, texts in TEXTS.items()
    for j, text in enumerate(texts * 2)
]
GRID = {"profiles": ["codebot"], "budgets": [200, 250, 300, 400], "orderings": ["alpha"]}
