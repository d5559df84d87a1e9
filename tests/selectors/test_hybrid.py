"""The hybrid (two-stage dispatcher) selector with the real MiniLM model."""

from __future__ import annotations

from selector_helpers import SKILLS, query

from skillbench.catalog import Skill
from skillbench.listing import ListedSkill, Listing
from skillbench.selectors import SELECTORS, Calibratable, SelectorEnv, keyword_hit

ALERTS = Skill("alerts", "Send a notification to the user's phone.", trigger_keywords=("storm",))
URGENT = Skill("urgent-alerts", "Page the on-call team.", trigger_keywords=("storm",), priority=90)


def make(shown: list[Skill], hidden: list[Skill] = ()) -> Listing:
    entries = [ListedSkill(s, "full", i, 50, s.description) for i, s in enumerate(shown)]
    entries += [ListedSkill(s, "dropped", None, 0) for s in hidden]
    return Listing("codebot", None, "(text)", entries)


def test_keyword_hit_beats_a_closer_embedding(env: SelectorEnv) -> None:
    lst = make([SKILLS["weather"], ALERTS])
    [d] = SELECTORS.get("hybrid")({}, env).select(
        [query("is a storm coming to Oslo? what is the forecast", ("alerts",), lst)]
    )
    assert d.chosen == "alerts" and d.detail["keyword_hit"] is True
    assert d.detail["candidates"][0] == "alerts"


def test_priority_breaks_ties_between_keyword_hits(env: SelectorEnv) -> None:
    lst = make([ALERTS, URGENT, SKILLS["weather"]])
    [d] = SELECTORS.get("hybrid")({}, env).select([query("storm warning", ("urgent-alerts",), lst)])
    assert d.chosen == "urgent-alerts"


def test_hidden_skills_keywords_never_fire(env: SelectorEnv) -> None:
    lst = make([SKILLS["weather"], SKILLS["git-commit"]], hidden=[ALERTS])
    [d] = SELECTORS.get("hybrid")({"threshold": 0.99}, env).select(
        [query("a storm is coming", ("alerts",), lst)]
    )
    assert d.kind == "abstain"


def test_similarity_match_needs_the_threshold(env: SelectorEnv) -> None:
    lst = make([SKILLS["weather"], SKILLS["translate"]])
    q = query("will it rain in Berlin tomorrow?", ("weather",), lst)
    [hit] = SELECTORS.get("hybrid")({}, env).select([q])
    [miss] = SELECTORS.get("hybrid")({"threshold": 0.99}, env).select([q])
    assert hit.chosen == "weather" and not hit.detail["keyword_hit"]
    assert miss.kind == "abstain" and miss.score == hit.score


def test_a_skill_without_keywords_never_keyword_hits() -> None:
    entry = ListedSkill(Skill("pdf-merge", "Merge PDF files."), "full", 0, 10, "")
    assert not keyword_hit(entry, "please merge the pdf-merge PDF I sent")


def test_keywords_are_exact_substrings_as_documented() -> None:
    # the dispatcher tests ``k in request``: case matters, and a keyword may sit inside a word
    entry = ListedSkill(Skill("fetch", "Fetch a page.", trigger_keywords=("URL",)), "full", 0, 5)
    assert keyword_hit(entry, "open this URL")
    assert keyword_hit(entry, "check the URLs")
    assert not keyword_hit(entry, "fetch this url")


def test_auto_threshold_calibrates(env: SelectorEnv) -> None:
    lst = make([SKILLS["weather"], SKILLS["translate"], SKILLS["pdf-merge"]])
    train = [
        query("will it rain in Berlin tomorrow?", ("weather",), lst),
        query("say this in French: good morning", ("translate",), lst),
        query("recommend a good novel", (), lst),
    ]
    selector = SELECTORS.get("hybrid")({"threshold": "auto", "top_k": 2}, env)
    assert isinstance(selector, Calibratable)
    selector.calibrate(train)
    assert [d.chosen for d in selector.select(train)] == ["weather", "translate", None]
