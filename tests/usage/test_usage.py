"""Usage decay arithmetic, duration parsing and the JSON round trip."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillbench._errors import InputError, SkillbenchError
from skillbench.usage import UsageTracker, parse_duration

T0 = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90m", timedelta(minutes=90)),
        ("12h", timedelta(hours=12)),
        ("7d", timedelta(days=7)),
        ("2w", timedelta(weeks=2)),
        ("3600", timedelta(hours=1)),
        (86400, timedelta(days=1)),
        ("1.5d", timedelta(hours=36)),
        ("inf", None),
        (float("inf"), None),
    ],
)
def test_parse_duration(text: str | float, expected: timedelta | None) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("bad", ["", "7x", "-1d", "0", "d7", "7 days", True])
def test_parse_duration_rejects(bad: object) -> None:
    with pytest.raises(SkillbenchError):
        parse_duration(bad)  # type: ignore[arg-type]


def test_last_use_decay_and_floor() -> None:
    t = UsageTracker("7d")
    t.record("review", T0)
    t.record("review", T0 + timedelta(days=7))
    t.record("debug", T0)
    now = T0 + timedelta(days=14)
    scores = t.scores(now)
    # review: 2 uses, last 7 days ago -> 2 * 0.5; debug: 1 use 14 days ago -> 0.25
    assert scores["review"] == pytest.approx(1.0)
    assert scores["debug"] == pytest.approx(0.25)
    # 70 days = 10 half-lives: 0.5**10 < 0.10, so the floor holds
    assert t.scores(T0 + timedelta(days=77))["review"] == pytest.approx(0.2)


def test_per_event_sums_each_use() -> None:
    t = UsageTracker("1d", model="per_event")
    t.record("a", T0)
    t.record("a", T0 + timedelta(days=1))
    now = T0 + timedelta(days=2)
    assert t.scores(now)["a"] == pytest.approx(0.25 + 0.5)
    last = UsageTracker("1d")
    last.record("a", T0)
    last.record("a", T0 + timedelta(days=1))
    assert last.scores(now)["a"] == pytest.approx(2 * 0.5)


def test_infinite_half_life_is_count_and_naive_is_utc() -> None:
    for model in ("last_use", "per_event"):
        t = UsageTracker("inf", model=model)  # type: ignore[arg-type]
        t.record("a", datetime(2020, 1, 1))
        t.record("a", datetime(2021, 1, 1, tzinfo=timezone(timedelta(hours=5))))
        assert t.scores(T0) == {"a": 2.0}
    naive, aware = UsageTracker("1h"), UsageTracker("1h")
    naive.record("a", datetime(2025, 1, 1, 0, 0))
    aware.record("a", T0)
    assert naive.scores(T0 + timedelta(hours=1)) == aware.scores(T0 + timedelta(hours=1))


def test_future_use_counts_as_new() -> None:
    t = UsageTracker("1d")
    t.record("a", T0 + timedelta(days=1))
    assert t.scores(T0) == {"a": 1.0}


@given(
    ages=st.lists(st.floats(min_value=0, max_value=1e7), min_size=1, max_size=20),
    hl=st.floats(min_value=1, max_value=1e6),
)
def test_scores_bounded(ages: list[float], hl: float) -> None:
    for model in ("last_use", "per_event"):
        t = UsageTracker(hl, model=model)  # type: ignore[arg-type]
        for a in ages:
            t.record("s", T0 - timedelta(seconds=a))
        score = t.scores(T0)["s"]
        assert 0.10 * len(ages) - 1e-9 <= score <= len(ages) + 1e-9


@pytest.mark.parametrize("model", ["last_use", "per_event"])
def test_json_round_trip(tmp_path, model: str) -> None:
    t = UsageTracker("3d", model=model)  # type: ignore[arg-type]
    t.record("review", T0)
    t.record("review", T0 + timedelta(hours=5))
    t.record("debug", T0 + timedelta(days=1))
    path = tmp_path / "usage.json"
    t.save(path)
    data = json.loads(path.read_text())
    if model == "last_use":
        assert data["review"] == {"count": 2, "last_used": "2025-01-01T05:00:00+00:00"}
    else:
        assert len(data["review"]["events"]) == 2
    back = UsageTracker.load(path, "3d", model=model)  # type: ignore[arg-type]
    now = T0 + timedelta(days=4)
    assert back.scores(now) == pytest.approx(t.scores(now))
    assert back.count("review") == 2


def test_load_converts_between_forms(tmp_path) -> None:
    path = tmp_path / "u.json"
    path.write_text(json.dumps({"a": {"count": 3, "last_used": "2025-01-01T00:00:00Z"}}))
    per_event = UsageTracker.load(path, "1d", model="per_event")
    assert per_event.scores(T0 + timedelta(days=1)) == {"a": pytest.approx(1.5)}
    path.write_text(json.dumps({"a": {"events": ["2024-12-31T00:00:00", "2025-01-01T00:00:00"]}}))
    last = UsageTracker.load(path, "1d")
    assert last.scores(T0 + timedelta(days=1)) == {"a": pytest.approx(1.0)}


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ({"a": {"count": "x", "last_used": "2025-01-01"}}, "a.count"),
        ({"a": {"count": 1, "last_used": "yesterday"}}, "a.last_used"),
        ({"a": {"events": ["2025-01-01", 3]}}, "a.events[1]"),
        ({"a": 3}, "a"),
    ],
)
def test_load_errors_name_file_and_field(tmp_path, content: object, field: str) -> None:
    path = tmp_path / "usage.json"
    path.write_text(json.dumps(content))
    with pytest.raises(InputError) as info:
        UsageTracker.load(path)
    assert str(path) in str(info.value)
    assert info.value.location.field == field


def test_load_invalid_json_names_line(tmp_path) -> None:
    path = tmp_path / "usage.json"
    path.write_text('{\n  "a": {\n')
    with pytest.raises(InputError) as info:
        UsageTracker.load(path)
    assert info.value.location.line is not None
