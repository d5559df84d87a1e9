"""A tiny tune project: a skill whose description lacks the words its requests use, while its
body has them, so the offline proposer has something real to find."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FLAKY_BODY = (
    "# Flaky checks\n\nWhen checks fail intermittently, rerun them with a fixed seed and look "
    "for timing races between workers. Intermittently failing checks usually come from "
    "timing, races or shared state.\n"
)
FLAKY = [
    "ci fails intermittently on main",
    "login check breaks intermittently",
    "timing races break the nightly build",
    "cart check fails intermittently overnight",
    "races between workers break builds",
    "timing dependent failure in payments",
    "job passes locally but fails intermittently",
    "suspect timing races in the scheduler",
    "intermittently red pipeline on fridays",
    "worker races corrupt the fixture",
]
DOCS = [
    "write documentation for the parser module",
    "documentation for the cache module please",
    "write the documentation of this module",
    "module documentation is missing, write it",
    "write documentation for the http module",
]
DEPLOY = [
    "deploy the service to production now",
    "deploy this service to production",
    "production deploy of the billing service",
    "ship the release to prod",
    "roll the new build out to prod",
    "push version two live",
    "get this live in prod today",
    "promote staging to prod",
    "release it to prod after lunch",
    "make the hotfix live",
]
NEGATIVE = [
    "what is the capital of france",
    "tell me a joke",
    "how tall is everest",
    "translate hello to german",
]


def write_tune_project(root: Path, selector: dict[str, Any] | None = None) -> Path:
    """Skills, requests and a run config under ``root``; returns the config path."""
    skills = {
        "flaky-checks": ("Stabilise a test suite.", FLAKY_BODY),
        "write-docs": ("Write documentation for a module.", "# Docs\n\nExplain the API.\n"),
        "deploy": ("Deploy the service to production.", "# Deploy\n\nRun the pipeline.\n"),
    }
    for name, (description, body) in skills.items():
        path = root / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}", "utf-8")
    (root / "skills" / "deploy" / "run.sh").write_text("echo deploy\n", encoding="utf-8")
    rows = [
        *({"text": t, "expected": "flaky-checks"} for t in FLAKY),
        *({"text": t, "expected": "write-docs"} for t in DOCS),
        *({"text": t, "expected": "deploy"} for t in DEPLOY),
        *({"text": t, "expected": None} for t in NEGATIVE),
    ]
    with (root / "requests.jsonl").open("w", encoding="utf-8") as fh:
        for i, row in enumerate(rows):
            fh.write(json.dumps({"id": f"q{i:02d}", **row}) + "\n")
    config = {
        "name": "tune-test",
        "catalogs": {"base": ["skills"]},
        "requests": "requests.jsonl",
        "orderings": ["alpha"],
        "selectors": [selector or {"type": "lexical", "threshold": 0.5}],
        "seed": 3,
    }
    path = root / "config.yaml"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def test_texts(out: Path) -> list[str]:
    """The texts of the test split tune wrote."""
    lines = (out / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["text"] for line in lines]


def assert_no_test_text_in_prompts(out: Path) -> int:
    """No saved proposer prompt contains a test request's text; returns prompts checked."""
    texts = test_texts(out)
    prompts = sorted((out / "prompts").glob("*.json"))
    for prompt in prompts:
        saved = prompt.read_text(encoding="utf-8")
        leaked = [t for t in texts if t in saved or json.dumps(t)[1:-1] in saved]
        assert not leaked, f"{prompt} shows test requests: {leaked}"
    return len(prompts)
