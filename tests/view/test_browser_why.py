"""The viewer answers "why" in a real headless Chromium: why a skill was not shown, the
selector's reason, the selectors under test first, filter state in the URL, run differences,
and relabels that round-trip into a run.

The run: four skills under codebot, alphabetical, budgets 4000 and 200 characters. ``tf`` is
a ``paths`` skill no workspace file matches (inactive), ``manual`` has
``disable-model-invocation`` (disabled); ``deploy`` and ``notes`` are listable, in that order.
At 200 characters ``deploy``'s entry fits and ``notes``'s (its description alone is 130
characters) does not: ranked 2 of 2, cut, with 1 skill shown. Lexical BM25 with threshold
1.5 is under test; the oracle is a baseline.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from skillbench.cli._main import main
from skillbench.results import read_run
from skillbench.view import write_view
from tests.view.pages import count as _count
from tests.view.pages import errors as _errors
from tests.view.pages import open_page as _open

SKILLS = {
    "deploy": ("Deploy the app.", ""),
    "notes": ("Write release notes for a version from the merged pull requests. " * 2, ""),
    "tf": ("Plan terraform infrastructure changes.", "paths: ['**/*.tf']\n"),
    "manual": ("Release by hand.", "disable-model-invocation: true\n"),
}
REQUESTS = [
    ("r1", "plan the terraform changes", ["tf"]),
    ("r2", "release by hand please", ["manual"]),
    ("r3", "write release notes for version 3", ["notes"]),
    ("r4", "deploy the app now", ["deploy"]),
    ("r5", "what is the weather", []),
    ("r6", "merged pull requests overview", ["notes"]),
]


def _run(root: Path, name: str = "why", extra: str = "") -> Path:
    for skill, (description, more) in SKILLS.items():
        folder = root / "skills" / skill
        folder.mkdir(parents=True, exist_ok=True)
        text = f"---\nname: {skill}\ndescription: {json.dumps(description)}\n{more}---\nbody\n"
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
    (root / "work").mkdir(exist_ok=True)
    with (root / "requests.jsonl").open("w", encoding="utf-8") as fh:
        for i, (rid, text, expected) in enumerate(REQUESTS):
            at = f"2025-01-0{i + 1}T10:00:00Z"
            fh.write(json.dumps({"id": rid, "text": text, "expected": expected, "at": at}) + "\n")
    config = root / f"{name}.yaml"
    config.write_text(
        f"name: {name}\ncatalogs:\n  base: [{{path: skills, source: project}}]\ncwd: work\n"
        "requests: requests.jsonl\nbudgets: [4000, 200]\norderings: [alpha]\n"
        "selectors:\n  - {type: lexical, threshold: 1.5}\n  - {type: oracle}\nseed: 0\n" + extra,
        encoding="utf-8",
    )
    out = root / "run"
    assert main(["run", str(config), "-o", str(out), "-q"]) == 0
    return out


@pytest.fixture(scope="module")
def why_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("why"))


def _detail(browser: WebDriver, rid: str, cell: str) -> dict[str, str]:
    """The expanded detail of request ``rid`` in ``cell``, as term → text."""
    Select(browser.find_element(By.ID, "f-cell")).select_by_visible_text(cell)
    search = browser.find_element(By.ID, "f-text")
    search.clear()
    search.send_keys(rid)
    (row,) = browser.find_elements(By.CSS_SELECTOR, "#decisions tbody tr.decision")
    row.click()
    terms = browser.find_elements(By.CSS_SELECTOR, "tr.expanded dt")
    values = browser.find_elements(By.CSS_SELECTOR, "tr.expanded dd")
    out = {t.text: v.text for t, v in zip(terms, values, strict=True)}
    row.click()
    return out


def test_not_shown_decisions_say_why(browser: WebDriver, why_run: Path, tmp_path: Path) -> None:
    _open(browser, write_view([why_run], tmp_path / "view.html"))
    tight = "budget=200 selector=lexical"
    roomy = "budget=4000 selector=lexical"
    inactive = _detail(browser, "r1", roomy)["why not shown"]
    assert inactive.startswith("tf: inactive paths skill: paths globs match no file")
    assert _detail(browser, "r2", roomy)["why not shown"].startswith(
        "manual: disabled: disable-model-invocation"
    )
    cut = _detail(browser, "r3", tight)["why not shown"]
    assert cut.startswith("notes: cut by the budget: the ordering ranks it 2 of 2")
    assert "; the 1 skill shown used " in cut and cut.endswith(" of 200")
    shown = _detail(browser, "r3", roomy)
    assert "why not shown" not in shown
    assert _errors(browser) == []


def test_a_threshold_selector_states_its_threshold_and_margin(
    browser: WebDriver, why_run: Path, tmp_path: Path
) -> None:
    rows = [r for r in read_run(why_run).rows if r.selector == "lexical" and r.detail]
    sample = [r for r in rows if r.detail.get("top") and r.budget == 4000]
    # r2's best score (notes, 0.8) is under the threshold: a miss; r3's is over it
    assert {r.outcome for r in sample} >= {"correct_skill", "missed"}
    _open(browser, write_view([why_run], tmp_path / "view.html"))
    for row in sample:
        name, score = row.detail["top"][0]
        margin = score - 1.5
        sign = "+" if margin >= 0 else "−"
        verdict = "invoke" if margin >= 0 else "abstain"
        expected = (
            f"top-1 {name} scored {score:.3f}, threshold 1.500: margin {sign}{abs(margin):.3f}"
            f" → {verdict}"
        )
        said = _detail(browser, row.request_id, "budget=4000 selector=lexical")
        assert said["selector's reason"] == expected
        assert (verdict == "invoke") == (row.chosen is not None)


def test_opens_on_the_selector_under_test_with_state_in_the_url(
    browser: WebDriver, why_run: Path, tmp_path: Path
) -> None:
    rows = read_run(why_run).rows
    page = write_view([why_run], tmp_path / "view.html")
    _open(browser, page)
    lexical = [r for r in rows if r.selector == "lexical"]
    assert _count(browser) == len(lexical) == 12
    assert browser.find_element(By.ID, "of").text == "of 12 decisions of the selectors under test"
    browser.find_element(By.ID, "f-baselines").click()
    assert _count(browser) == len(rows) == 24

    Select(browser.find_element(By.ID, "f-selector")).select_by_value("oracle")
    assert _count(browser) == 12
    Select(browser.find_element(By.ID, "f-cell")).select_by_visible_text(
        "budget=200 selector=oracle"
    )
    Select(browser.find_element(By.ID, "f-outcome")).select_by_value("missed")
    missed = [r for r in rows if r.selector == "oracle" and r.budget == 200]
    n = sum(r.outcome == "missed" for r in missed)
    assert _count(browser) == n
    assert browser.find_element(By.ID, "of").text == f"of {len(missed)} decisions in this cell"

    state = browser.current_url.split("#", 1)[1]
    assert "outcome=missed" in state and "selector=oracle" in state
    browser.get("about:blank")
    browser.get(page.resolve().as_uri() + "#" + state)
    assert _count(browser) == n
    assert Select(browser.find_element(By.ID, "f-outcome")).first_selected_option.text == "missed"

    browser.get(page.resolve().as_uri())
    Select(browser.find_element(By.ID, "f-sort")).select_by_value("score")
    scores = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#decisions tbody tr td.num")]
    best = max(r.score for r in lexical if r.score is not None)
    assert scores[0] == f"{best:.3f}"
    assert _errors(browser) == []


def test_two_runs_show_what_differs_above_the_flips(
    browser: WebDriver, why_run: Path, tmp_path: Path
) -> None:
    other = tmp_path / "b"
    other.mkdir()
    b = _run(other, "why", "usage: {record: label}\n")
    _open(browser, write_view([why_run, b], tmp_path / "two.html"))
    diff = browser.find_element(By.ID, "diff").text
    assert "usage.record" in diff and "chosen" in diff and "label" in diff
    assert _errors(browser) == []


def test_relabels_export_and_round_trip_into_a_run(
    browser: WebDriver, why_run: Path, tmp_path: Path
) -> None:
    """r5 ("what is the weather", no skill) relabelled to ``deploy``, r4 to "no skill". At
    budget 4000 the oracle then invokes deploy on r5 and abstains on r4: both correct, while
    the old oracle run scored again under the new labels misses r5 and falsely invokes on r4."""
    _open(browser, write_view([why_run], tmp_path / "view.html"))
    browser.find_element(By.ID, "f-baselines").click()
    cell = "budget=4000 selector=oracle"
    for rid, value in (("r5", "deploy"), ("r4", "-")):
        Select(browser.find_element(By.ID, "f-cell")).select_by_visible_text(cell)
        search = browser.find_element(By.ID, "f-text")
        search.clear()
        search.send_keys(rid)
        browser.find_element(By.CSS_SELECTOR, "#decisions tbody tr.decision").click()
        Select(browser.find_element(By.CSS_SELECTOR, "tr.expanded select.relabel")).select_by_value(
            value
        )
    exported = browser.find_element(By.ID, "labels-export").get_attribute("value")
    lines = [json.loads(line) for line in exported.splitlines()]
    assert lines == [
        {"id": "r4", "expected": [], "was": ["deploy"]},
        {"id": "r5", "expected": ["deploy"], "was": []},
    ]
    assert (
        browser.find_element(By.ID, "labels-download").get_attribute("download") == "labels.jsonl"
    )
    labels = tmp_path / "labels.jsonl"
    labels.write_text(exported, encoding="utf-8")

    config = why_run / "config.yaml"
    rerun = tmp_path / "rerun"
    assert main(["run", str(config), "--labels", str(labels), "-o", str(rerun), "-q"]) == 0
    again = {
        r.request_id: r.outcome
        for r in read_run(rerun).rows
        if r.selector == "oracle" and r.budget == 4000
    }
    assert (again["r4"], again["r5"]) == ("correct_abstain", "correct_skill")

    assert main(["report", str(why_run), "--labels", str(labels), "--format", "md", "-q"]) == 0
    rescored = {
        r.request_id: r.outcome
        for r in read_run(why_run / "relabelled").rows
        if r.selector == "oracle" and r.budget == 4000
    }
    assert (rescored["r4"], rescored["r5"]) == ("false_trigger", "missed")
