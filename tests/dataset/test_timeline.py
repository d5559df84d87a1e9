"""The seeded timeline generator."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from skillbench.dataset import LabelledRequest, assign_timeline, load_requests


def _requests(n: int = 600) -> list[LabelledRequest]:
    names = [f"skill-{i}" for i in range(12)]
    return [
        LabelledRequest(f"r{i}", f"text {i}", (names[i % 12],) if i % 10 else ()) for i in range(n)
    ]


def test_same_seed_same_timeline_other_seed_differs() -> None:
    reqs = _requests()
    a = assign_timeline(reqs, seed=7, days=30)
    b = assign_timeline(reqs, seed=7, days=30)
    c = assign_timeline(reqs, seed=8, days=30)
    key = [(r.at, r.session, r.turn) for r in a]
    assert key == [(r.at, r.session, r.turn) for r in b]
    assert key != [(r.at, r.session, r.turn) for r in c]


def test_every_request_placed_in_days_sessions_and_turns() -> None:
    out = assign_timeline(_requests(), seed=1, days=30)
    assert [r.id for r in out] == [r.id for r in _requests()]
    days = {(r.at.date() - datetime(2025, 1, 6).date()).days for r in out if r.at}
    assert days == set(range(30))
    sessions: dict[str, list[LabelledRequest]] = {}
    for r in out:
        assert r.session is not None
        sessions.setdefault(r.session, []).append(r)
    for turns in sessions.values():
        turns.sort(key=lambda r: r.turn or 0)
        assert [r.turn for r in turns] == list(range(len(turns)))
        assert [r.at for r in turns] == sorted(r.at for r in turns)  # type: ignore[type-var]


def test_interests_drift_between_early_and_late_days() -> None:
    out = assign_timeline(_requests(1200), seed=3, days=60)
    early = Counter(
        r.expected[0] for r in out if r.expected and r.at and r.at.day <= 16 and r.at.month == 1
    )
    late = Counter(r.expected[0] for r in out if r.expected and r.at and r.at.month == 2)
    top_early = {n for n, _ in early.most_common(3)}
    top_late = {n for n, _ in late.most_common(3)}
    assert top_early != top_late


def test_existing_times_and_topics_are_respected(shared_data: Path) -> None:
    reqs = load_requests(shared_data / "metatool-dev" / "requests.jsonl")[:50]
    fixed = datetime(2024, 5, 1, tzinfo=UTC)
    reqs[0] = replace(reqs[0], at=fixed, session="mine", turn=4)
    out = assign_timeline(reqs, seed=0, days=5)
    assert (out[0].at, out[0].session, out[0].turn) == (fixed, "mine", 4)
    assert all(r.at is not None for r in out)
