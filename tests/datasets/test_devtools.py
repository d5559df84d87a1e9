"""Invariants of the bundled devtools benchmark (datasets/devtools)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from skillbench.catalog import load_catalog
from skillbench.dataset import check_expected, load_requests

DEVTOOLS = Path(__file__).resolve().parents[2] / "datasets" / "devtools"
SOURCES = [
    f"{kind}={DEVTOOLS / 'skills' / kind}" for kind in ("bundled", "user", "project", "plugin")
]


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(SOURCES, profile="codebot", cwd=DEVTOOLS / "workspace")


@pytest.fixture(scope="module")
def requests():
    return load_requests(DEVTOOLS / "requests.jsonl")


def test_catalog_composition(catalog) -> None:
    assert not catalog.diagnostics
    assert len(catalog.skills) >= 40
    assert sum(s.context == "fork" for s in catalog.skills) >= 4
    assert sum(s.disable_model_invocation for s in catalog.skills) >= 3
    assert sum(bool(s.paths) for s in catalog.skills) >= 3
    assert len(catalog.overrides) >= 2
    assert {s.source for s in catalog.skills} >= {"bundled", "user", "project", "plugin"}
    assert any(s.path and s.path.endswith("skill.json") for s in catalog.skills)
    assert catalog.inactive == {"terraform-plan"}


def test_every_expected_name_exists(catalog, requests) -> None:
    check_expected(requests, catalog)
    invocable = {s.name for s in catalog.skills if s.model_invocable}
    for r in requests:
        assert set(r.expected) <= invocable, r.id


def test_counts_per_skill_and_negatives(catalog, requests) -> None:
    per_skill = Counter(r.expected[0] for r in requests if len(r.expected) == 1)
    for skill in catalog.skills:
        if skill.model_invocable:
            assert per_skill[skill.name] >= 20, skill.name
    negatives = sum(not r.expected for r in requests)
    assert negatives / len(requests) >= 0.25
    tags = Counter(t for r in requests for t in r.tags)
    assert tags["normal"] and tags["boundary"] and tags["abnormal"] and tags["near-miss"]
    assert all(("negative" in r.tags) == (not r.expected) for r in requests)


def test_ids_unique_and_time_ordered_within_sessions(requests) -> None:
    assert len({r.id for r in requests}) == len(requests)
    sessions: dict[str, list] = {}
    for r in requests:
        assert r.at is not None and r.session is not None
        sessions.setdefault(r.session, []).append(r)
    for turns in sessions.values():
        assert [r.turn for r in turns] == sorted(r.turn for r in turns)
        assert [r.at for r in turns] == sorted(r.at for r in turns)
    span = max(r.at for r in requests) - min(r.at for r in requests)
    assert 50 <= span.days <= 61


def test_v2_rewrites_descriptions_only(catalog) -> None:
    v2 = load_catalog(
        [f"{k}={DEVTOOLS / 'skills-v2' / k}" for k in ("bundled", "user", "project", "plugin")],
        cwd=DEVTOOLS / "workspace",
    )
    assert [s.name for s in v2.skills] == [s.name for s in catalog.skills]
    changed = [
        a.name
        for a, b in zip(catalog.skills, v2.skills, strict=True)
        if a.description != b.description
    ]
    assert len(changed) >= 10
    assert all(a.body == b.body for a, b in zip(catalog.skills, v2.skills, strict=True))
