"""oracle, random and never on hand-built listings."""

from __future__ import annotations

import pytest
from selector_helpers import listing, query

from skillbench._errors import SkillbenchError
from skillbench.selectors import SELECTORS, SelectorEnv


def test_registry_lists_offline_selectors() -> None:
    assert {"embedding", "lexical", "hybrid", "oracle", "random", "never"} <= set(SELECTORS)


def test_oracle_picks_a_shown_expected_skill_only(env: SelectorEnv) -> None:
    lst = listing(["weather", "pdf-merge"], hidden=["translate"])
    oracle = SELECTORS.get("oracle")({}, env)
    shown, hidden, negative = oracle.select(
        [
            query("merge", ("translate", "pdf-merge"), lst),
            query("translate", ("translate",), lst),
            query("hello", (), lst),
        ]
    )
    assert (shown.kind, shown.chosen) == ("invoke", "pdf-merge")
    assert hidden.kind == "abstain" and negative.kind == "abstain"


def test_never_abstains(env: SelectorEnv) -> None:
    decisions = SELECTORS.get("never")({}, env).select(
        [query("x", ("weather",), listing(["weather"]))]
    )
    assert [d.kind for d in decisions] == ["abstain"]


def test_random_is_deterministic_and_only_picks_shown(env: SelectorEnv) -> None:
    lst = listing(["weather", "pdf-merge", "git-commit"], hidden=["translate"])
    queries = [query("q", (), lst, rid=f"r{i}", repeat=i % 3) for i in range(200)]
    first = SELECTORS.get("random")({}, env).select(queries)
    again = SELECTORS.get("random")({}, SelectorEnv(cache_dir=env.cache_dir, seed=7)).select(
        queries
    )
    other = SELECTORS.get("random")({}, SelectorEnv(cache_dir=env.cache_dir, seed=8)).select(
        queries
    )
    assert [d.chosen for d in first] == [d.chosen for d in again]
    assert [d.chosen for d in first] != [d.chosen for d in other]
    chosen = {d.chosen for d in first}
    assert chosen == {None, "weather", "pdf-merge", "git-commit"}
    abstained = sum(d.kind == "abstain" for d in first)
    assert 70 < abstained < 130  # p_abstain 0.5


def test_random_p_abstain_bounds(env: SelectorEnv) -> None:
    lst = listing(["weather"])
    queries = [query("q", (), lst, rid=f"r{i}") for i in range(20)]
    always = SELECTORS.get("random")({"p_abstain": 0}, env).select(queries)
    none = SELECTORS.get("random")({"p_abstain": 1}, env).select(queries)
    assert all(d.chosen == "weather" for d in always)
    assert all(d.kind == "abstain" for d in none)


def test_unknown_param_names_nearest_valid_key(env: SelectorEnv) -> None:
    with pytest.raises(SkillbenchError, match=r"'p_abstian'.*did you mean 'p_abstain'"):
        SELECTORS.get("random")({"p_abstian": 0.2}, env)
    with pytest.raises(SkillbenchError, match=r"'treshold'.*did you mean 'threshold'"):
        SELECTORS.get("lexical")({"treshold": 1}, env)
    with pytest.raises(SkillbenchError, match=r"p_abstain.*between 0 and 1"):
        SELECTORS.get("random")({"p_abstain": 2}, env)
    with pytest.raises(SkillbenchError, match=r"threshold.*'auto'"):
        SELECTORS.get("embedding")({"threshold": "high"}, env)
