"""Synthetic run directories written to the documented contract (docs/architecture.md).

The replay engine is built elsewhere; these runs let the report, compare and gate code be tested
against realistic shapes: a grid over budgets, orderings and half-lives, per-decision rows with
the documented keys, and summary cells with Wilson intervals.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from skillbench.results import (
    CatalogFacts,
    Manifest,
    ResultRow,
    Summary,
    Timeline,
    summary_cell,
)
from skillbench.types import CellKey

SKILLS = {
    "review": "Review changes for bugs, regressions, risks and missing tests.",
    "refactor": "Improve code structure while preserving behaviour.",
    "test-writer": "Write unit tests for a module or function.",
    "test-runner": "Run the test suite and summarise failures.",
    "commit": "Write a conventional commit message for staged changes.",
    "changelog": "Update CHANGELOG.md from merged pull requests.",
    "release": "Cut a release: bump version, tag and publish.",
    "deps-upgrade": "Upgrade dependencies and fix breaking changes.",
    "security-audit": "Scan code and dependencies for vulnerabilities.",
    "docs-writer": "Write or improve documentation pages.",
    "api-docs": "Generate API reference docs from docstrings.",
    "perf-profile": "Profile slow code paths and suggest fixes.",
    "db-migration": "Write a database schema migration.",
    "sql-query": "Write or optimise a SQL query.",
    "dockerize": "Write a Dockerfile and compose setup.",
    "ci-setup": "Set up continuous integration workflows.",
    "lint-fix": "Fix linter and formatter complaints.",
    "type-check": "Add type hints and fix type-checker errors.",
    "debug": "Find the root cause of a bug from a stack trace.",
    "log-analyze": "Summarise errors in application logs.",
}
TWINS = {  # the skill a selector confuses each skill with
    "test-writer": "test-runner",
    "test-runner": "test-writer",
    "changelog": "release",
    "release": "changelog",
    "docs-writer": "api-docs",
    "api-docs": "docs-writer",
    "db-migration": "sql-query",
    "sql-query": "db-migration",
    "lint-fix": "type-check",
    "type-check": "lint-fix",
    "debug": "log-analyze",
    "log-analyze": "debug",
    "review": "refactor",
    "refactor": "review",
}
NAMES = list(SKILLS)


def _requests(n: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    popularity = np.linspace(3, 0.3, len(NAMES))
    popularity /= popularity.sum()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    out = []
    for i in range(n):
        negative = rng.random() < 0.2
        expected = [] if negative else [NAMES[rng.choice(len(NAMES), p=popularity)]]
        out.append(
            {
                "request_id": f"r{i:03d}",
                "expected": expected,
                "at": (start + timedelta(hours=6 * i)).isoformat(),
                "session": f"s{i // 4}",
                "turn": i % 4,
                "tags": ["negative"] if negative else ["normal"],
            }
        )
    return out


def _order(ordering: str, half_life: str) -> list[str]:
    if ordering == "alpha":
        return sorted(NAMES)
    # usage: popular first; a short half-life forgets popularity and mixes names in
    return NAMES if half_life != "1d" else NAMES[::2] + NAMES[1::2]


def _decide(req: Mapping[str, Any], order: Sequence[str], shown: int, rng, skill: float):
    expected = req["expected"]
    visible_names = order[:shown]
    if not expected:
        if rng.random() < 0.12:
            return rng.choice(visible_names), "false_trigger", None, None
        return None, "correct_abstain", None, None
    gold = expected[0]
    pos = order.index(gold)
    visible = pos < shown
    if visible and rng.random() < skill - 0.012 * pos:
        return gold, "correct_skill", True, pos
    twin = TWINS.get(gold)
    if twin is not None and twin in visible_names and rng.random() < 0.6:
        return twin, "wrong_skill", visible, pos if visible else None
    if not visible and rng.random() < 0.1:
        return gold, "hallucinated", False, None
    return None, "missed", visible, pos if visible else None


def write_run(
    path: Path,
    rows: Iterable[dict[str, Any]],
    *,
    name: str = "synthetic",
    skills: Mapping[str, str] | None = None,
    status: str = "complete",
) -> Path:
    """Write results.jsonl, summary.json and manifest.json for ``rows``, each through its
    ``skillbench.results`` model, so the files have exactly the engine's shapes."""
    rows = [ResultRow.model_validate(r) for r in rows]
    path.mkdir(parents=True, exist_ok=True)
    with (path / "results.jsonl").open("w") as fh:
        for r in rows:
            fh.write(json.dumps(r.model_dump(mode="json")) + "\n")
    cells: dict[CellKey, list[ResultRow]] = {}
    for r in rows:
        cells.setdefault(r.key, []).append(r)
    summary = Summary(
        name=name,
        config_hash="abc123",
        cells=[summary_cell(k, v) for k, v in cells.items()],
    )
    (path / "summary.json").write_text(json.dumps(summary.to_json(), indent=1))
    descriptions = dict(skills or SKILLS)
    facts = CatalogFacts(
        skills=descriptions,
        count=len(descriptions),
        active=len(descriptions),
        disabled=0,
        inactive=0,
        status={},
    )
    manifest = Manifest(
        name=name,
        config_hash="abc123",
        seed=0,
        status=status,
        started_at="2025-01-01T00:00:00+00:00",
        ended_at="2025-01-01T00:01:00+00:00",
        versions={},
        requests=len({r.request_id for r in rows}),
        cells=len(cells),
        decisions=len(rows),
        resumed_rows=0,
        token_model="gpt-4o",
        usage={},
        timeline=Timeline(days=60, seed=0),
        catalogs={variant: facts for variant in {r.catalog for r in rows}},
    )
    (path / "manifest.json").write_text(json.dumps(manifest.to_json()))
    return path


def sweep_rows(
    *,
    budgets: Sequence[int | None] = (500, 1000, 2000, 4000),
    orderings: Sequence[str] = ("usage", "alpha"),
    half_lives: Sequence[str] = ("7d",),
    catalogs: Sequence[str] = ("base",),
    repeats: int = 1,
    n_requests: int = 60,
    seed: int = 0,
    skill: Callable[[str], float] = lambda catalog: 0.92,
    cost: bool = True,
) -> list[dict[str, Any]]:
    """Rows of a grid run; each cell replays the same requests."""
    rng = np.random.default_rng(seed)
    requests = _requests(n_requests, rng)
    rows = []
    for catalog, budget, ordering, hl, rep in itertools.product(
        catalogs, budgets, orderings, half_lives, range(repeats)
    ):
        order = _order(ordering, hl)
        shown = len(NAMES) if budget is None else min(len(NAMES), max(1, budget // 110))
        for req in requests:
            chosen, outcome, visible, pos = _decide(req, order, shown, rng, skill(catalog))
            idx = NAMES.index(chosen) if chosen else 0
            rows.append(
                {
                    "catalog": catalog,
                    "profile": "codebot",
                    "budget": budget,
                    "ordering": ordering,
                    "half_life": hl,
                    "selector": "embedding",
                    "repeat": rep,
                    **req,
                    "chosen": chosen,
                    "outcome": outcome,
                    "visible": visible,
                    "gold_position": pos,
                    "listing_chars": shown * 105,
                    "listing_tokens": shown * 27,
                    "shown": shown,
                    "latency_ms": 1.5,
                    "split": "test",
                    "score": None,
                    "detail": {},
                    "inline_tokens": (300 + 40 * idx) if cost and chosen else None,
                    "fork_tokens": (900 + 10 * idx) if cost and chosen else None,
                    "declared_tokens": None,
                }
            )
    return rows


def paired_rows(
    correct: Sequence[bool], *, catalog: str = "base", repeats: int = 1, expected: str = "review"
) -> list[dict[str, Any]]:
    """One cell where request i (all repeats) is correct iff ``correct[i]``."""
    rows = []
    for i, ok in enumerate(correct):
        for rep in range(repeats):
            rows.append(
                {
                    "catalog": catalog,
                    "profile": "codebot",
                    "budget": 4000,
                    "ordering": "usage",
                    "half_life": "7d",
                    "selector": "embedding",
                    "repeat": rep,
                    "request_id": f"r{i:03d}",
                    "expected": [expected],
                    "chosen": expected if ok else "refactor",
                    "outcome": "correct_skill" if ok else "wrong_skill",
                    "visible": True,
                    "gold_position": 0,
                    "listing_chars": 400,
                    "listing_tokens": 100,
                    "shown": 4,
                    "latency_ms": 1.0,
                    "at": None,
                    "session": None,
                    "turn": None,
                    "tags": [],
                }
            )
    return rows
