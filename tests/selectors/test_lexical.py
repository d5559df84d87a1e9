"""BM25 arithmetic and the lexical selector on hand-built listings."""

from __future__ import annotations

import math

import pytest
from selector_helpers import SKILLS, listing, query

from skillbench._errors import SkillbenchError
from skillbench.catalog import Skill
from skillbench.listing import ListedSkill
from skillbench.selectors import BM25, SELECTORS, Calibratable, SelectorEnv, best_threshold


def test_bm25_matches_hand_computation() -> None:
    # N=2, df(apple)=1 -> idf = ln(1 + 1.5/1.5) = ln 2; tf=1, |d|=2, avgdl=1.5.
    scores = BM25(["apple banana", "cherry"]).scores(["apple apple pie"])
    expected = math.log(2) * 2.5 / (1 + 1.5 * (0.25 + 0.75 * 2 / 1.5))
    assert scores[0] == pytest.approx([expected, 0.0])


def test_hidden_best_match_is_never_chosen(env: SelectorEnv) -> None:
    lst = listing(["weather", "git-commit"], hidden=["pdf-merge"])
    lexical = SELECTORS.get("lexical")({"threshold": 0}, env)
    [d] = lexical.select([query("merge these pdf files into one pdf", ("pdf-merge",), lst)])
    assert d.chosen != "pdf-merge"


def test_selector_reads_shown_text_not_catalog_text(env: SelectorEnv) -> None:
    cut = ListedSkill(SKILLS["pdf-merge"], "name_only", 0, 12, "")
    lst = listing(["pdf-merge", "weather"], **{"pdf-merge": cut})
    lexical = SELECTORS.get("lexical")({}, env)
    [d] = lexical.select([query("combine several documents", ("pdf-merge",), lst)])
    assert d.kind == "abstain"  # "several documents" only lives in the hidden description


def test_threshold_abstains_and_score_is_reported(env: SelectorEnv) -> None:
    lst = listing(["weather", "pdf-merge", "git-commit", "translate"])
    q = query("what is the weather forecast in Paris", ("weather",), lst)
    [hit] = SELECTORS.get("lexical")({}, env).select([q])
    [strict] = SELECTORS.get("lexical")({"threshold": 100}, env).select([q])
    assert (hit.kind, hit.chosen) == ("invoke", "weather") and hit.score > 1.0
    assert strict.kind == "abstain" and strict.score == pytest.approx(hit.score)
    assert hit.latency_ms >= 0 and hit.detail["top"][0][0] == "weather"


def test_calibration_separates_positives_from_negatives(env: SelectorEnv) -> None:
    lst = listing(["weather", "pdf-merge", "git-commit", "translate"])
    train = [
        query("weather forecast for Oslo", ("weather",), lst),
        query("merge my PDF files", ("pdf-merge",), lst),
        query("commit message for staged changes", ("git-commit",), lst),
        query("what city should I visit", (), lst),  # weak overlap: "city"
        query("tell me a joke", (), lst),
    ]
    selector = SELECTORS.get("lexical")({"threshold": "auto"}, env)
    assert isinstance(selector, Calibratable)
    with pytest.raises(SkillbenchError, match="not calibrated"):
        selector.select(train)
    fitted = selector.calibrate(train).threshold
    decisions = selector.select(train)
    assert [d.chosen for d in decisions] == ["weather", "pdf-merge", "git-commit", None, None]
    assert not isinstance(SELECTORS.get("lexical")({}, env), Calibratable)
    assert fitted > 0


def test_best_threshold_picks_the_widest_margin_of_the_best_interval() -> None:
    import numpy as np

    def top1(score: float, correct_if_invoke: int, correct_if_abstain: int):
        return np.array([score]), np.array([correct_if_invoke, correct_if_abstain])

    # positives score 0.8 and 0.6, negatives 0.3 and 0.5: any t in (0.5, 0.6] is perfect.
    steps = [top1(0.8, 1, 0), top1(0.6, 1, 0), top1(0.3, 0, 1), top1(0.5, 0, 1)]
    assert best_threshold(steps) == pytest.approx(0.55)
    # all negatives: abstain on everything (threshold above the top score).
    assert best_threshold([top1(0.4, 0, 1)]) > 0.4


def test_empty_listing_abstains(env: SelectorEnv) -> None:
    empty = listing([], hidden=["weather"])
    [d] = SELECTORS.get("lexical")({"threshold": 0}, env).select([query("weather", (), empty)])
    assert d.kind == "abstain" and d.score is None


def test_stopwords_and_case_are_ignored() -> None:
    scores = BM25([Skill("a", "The Weather").description, "pdf"]).scores(["WEATHER of the"])
    assert scores[0][0] > 0 and scores[0][1] == 0


def test_index_is_built_once_per_listing_and_bounded() -> None:
    from skillbench.selectors import LexicalSelector

    selector = LexicalSelector(threshold=0.0, cache_size=2)
    a, b, c = (listing(names) for names in (["weather", "pdf-merge"], ["weather"], ["translate"]))
    ask = [query("weather in Oslo", (), lst, rid=str(i)) for i, lst in enumerate((a, a, b))]
    first = [(d.chosen, d.score) for d in selector.select(ask)]
    key = ("weather: Report the current weather forecast for a city.",)
    index_b = selector.index(key)
    # A second batch over the same listings reuses the indexes and decides identically.
    assert [(d.chosen, d.score) for d in selector.select(ask)] == first
    assert selector.index(key) is index_b
    # Past ``cache_size`` listings the least recently used index is dropped and rebuilt.
    selector.select([query("translate to French", (), c)])
    selector.select([query("merge", (), a)])
    assert selector.index(key) is not index_b
    assert (
        selector.index(key).scores(["weather"]).tolist() == BM25(key).scores(["weather"]).tolist()
    )


def test_bm25_scores_do_not_depend_on_the_batch() -> None:
    docs = [f"{s.name} {s.description}" for s in SKILLS.values()] * 7
    index = BM25(docs)
    queries = ["merge pdf files", "weather in the city", "translate french text"] * 30
    batch = index.scores(queries)
    assert all((index.scores([q])[0] == row).all() for q, row in zip(queries, batch, strict=True))
