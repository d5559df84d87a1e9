"""``UsageTracker.ranked``: the same scores as ``scores``, ranked as a full sort ranks them."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from skillbench.catalog import Skill
from skillbench.listing import ListingPlan
from skillbench.usage import RankedScores, UsageTracker
from skillbench.usage._tracker import RANKED_FROM

T0 = datetime(2025, 1, 1, tzinfo=UTC)

uses = st.lists(
    st.tuples(st.integers(0, 30), st.integers(0, 60 * 24 * 40)), min_size=0, max_size=60
)


def _padded(half_life: str, floor: float = 0.1) -> UsageTracker:
    """A tracker with enough history (old uses) for ``ranked`` to rank with numpy."""
    tracker = UsageTracker(half_life, floor)
    for i in range(RANKED_FROM):
        tracker.record(f"old{i}", T0 - timedelta(days=400))
    return tracker


def _tracker(history: list[tuple[int, int]], half_life: str, floor: float) -> UsageTracker:
    tracker = _padded(half_life, floor)
    for skill, minutes in history:
        tracker.record(f"s{skill}", T0 + timedelta(minutes=minutes))
    return tracker


@settings(max_examples=150, deadline=None)
@given(
    uses,
    st.sampled_from(["1h", "7d", "inf"]),
    st.sampled_from([0.0, 0.1, 0.5]),
    st.integers(0, 60 * 24 * 45),
)
def test_ranked_matches_scores_and_full_sort(
    history: list[tuple[int, int]], half_life: str, floor: float, now_minutes: int
) -> None:
    tracker = _tracker(history, half_life, floor)
    now = T0 + timedelta(minutes=now_minutes)
    exact = tracker.scores(now)
    ranked = tracker.ranked(now)
    assert isinstance(ranked, RankedScores)
    assert dict(ranked) == exact
    expected = sorted(exact.items(), key=lambda item: item[1], reverse=True)
    assert list(ranked.ranked()) == expected
    assert ranked.nonzero() == {name for name, score in exact.items() if score}


def test_ties_keep_first_use_order_and_floor_clamps_exactly() -> None:
    # Three skills used once long ago all sit on the floor: 1 × 0.1 each, tied with the
    # padding (older, so first); a fourth used twice just now scores 2.
    tracker = _padded("1d")
    for name in ("b", "a", "c"):
        tracker.record(name, T0)
    tracker.record("d", T0 + timedelta(days=30))
    tracker.record("d", T0 + timedelta(days=30))
    ranked = tracker.ranked(T0 + timedelta(days=30)).ranked()
    assert ranked[0] == ("d", 2.0)
    assert ranked[RANKED_FROM + 1 :] == [("b", 0.1), ("a", 0.1), ("c", 0.1)]
    assert ranked[1] == ("old0", 0.1)


def test_later_uses_do_not_change_an_earlier_snapshot() -> None:
    tracker = _padded("inf")
    tracker.record("a", T0)
    snapshot = tracker.ranked(T0)
    tracker.record("a", T0)
    tracker.record("b", T0)
    assert snapshot["a"] == 1.0
    assert "b" not in snapshot
    assert len(snapshot) == RANKED_FROM + 1


def test_usage_listing_is_the_same_with_ranked_or_plain_scores() -> None:
    skills = [Skill(f"skill-{i:02d}", f"Does task number {i}.") for i in range(40)]
    plan = ListingPlan(skills, profile="codebot", budget=600, ordering="usage")
    tracker = _padded("7d")
    texts = set()
    for day in range(30):
        tracker.record(f"skill-{(day * 7) % 40:02d}", T0 + timedelta(days=day))
        now = T0 + timedelta(days=day, hours=12)
        ranked = tracker.ranked(now)
        assert isinstance(ranked, RankedScores)
        text = plan.render(ranked).text
        assert text == plan.render(tracker.scores(now)).text
        texts.add(text)
    assert len(texts) > 10  # the usage history does reorder the listing


def test_long_history_ranks_like_a_full_sort() -> None:
    # Hundreds of skills: the ranking is resolved over several chunks of close-score runs.
    rng = random.Random(7)
    tracker = UsageTracker("7d", 0.1)
    assert RANKED_FROM < 800
    for _ in range(3000):
        tracker.record(f"s{rng.randrange(800)}", T0 + timedelta(minutes=rng.randrange(86400)))
    for day in (1, 20, 45, 90):
        now = T0 + timedelta(days=day)
        exact = tracker.scores(now)
        expected = sorted(exact.items(), key=lambda item: item[1], reverse=True)
        assert list(tracker.ranked(now).ranked()) == expected
