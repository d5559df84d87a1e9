"""The viewer in a real headless Chromium: loads cleanly, filters, expands, stays inert."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from skillbench.replay import load_config, run_experiment
from skillbench.results import read_run
from skillbench.view import write_view
from tests.view.pages import count as _count
from tests.view.pages import errors as _errors
from tests.view.pages import open_page as _open


def test_page_loads_filters_and_expands_to_the_listing(
    browser: WebDriver, hostile_run: Path, tmp_path: Path
) -> None:
    rows = read_run(hostile_run).rows
    _open(browser, write_view([hostile_run], tmp_path / "view.html"))
    assert _errors(browser) == []
    assert _count(browser) == len(rows)

    Select(browser.find_element(By.ID, "f-outcome")).select_by_value("missed")
    missed = sum(r.outcome == "missed" for r in rows)
    assert 0 < missed < len(rows)
    assert _count(browser) == missed
    outcomes = browser.find_elements(By.CSS_SELECTOR, "#decisions tbody tr.decision .outcome")
    assert len(outcomes) == missed and {o.text for o in outcomes} == {"missed"}

    Select(browser.find_element(By.ID, "f-outcome")).select_by_value("")
    Select(browser.find_element(By.ID, "f-skill")).select_by_value("notes")
    browser.find_element(By.ID, "f-text").send_keys("2.0")
    assert _count(browser) == sum(r.request_id == "q2" for r in rows)
    cell = "budget=4000 ordering=alpha selector=oracle"
    Select(browser.find_element(By.ID, "f-cell")).select_by_visible_text(cell)
    assert _count(browser) == 1

    first = browser.find_element(By.CSS_SELECTOR, "#decisions tbody tr.decision")
    first.click()
    listing = browser.find_element(By.CSS_SELECTOR, "tr.expanded pre.listing")
    mark = listing.find_element(By.CSS_SELECTOR, "mark.expected")
    assert mark.text.startswith("- notes:")
    # alphabetical: deploy, lint, notes; the oracle chose notes, so the mark is both
    assert mark.get_attribute("title") == "notes at position 2"
    assert "chosen" in mark.get_attribute("class")
    first.click()
    assert browser.find_elements(By.CSS_SELECTOR, "tr.expanded") == []
    assert _errors(browser) == []


def test_hostile_text_is_shown_not_run(
    browser: WebDriver, hostile_run: Path, tmp_path: Path
) -> None:
    _open(browser, write_view([hostile_run], tmp_path / "view.html"))
    Select(browser.find_element(By.ID, "f-skill")).select_by_value("deploy")
    for row in browser.find_elements(By.CSS_SELECTOR, "#decisions tbody tr.decision"):
        row.click()
    shown = " ".join(p.text for p in browser.find_elements(By.CSS_SELECTOR, "pre.listing"))
    assert "</script><script>window.__pwned=1</script><img src=x" in shown
    browser.find_element(By.ID, "f-text").send_keys("lint errors")
    Select(browser.find_element(By.ID, "f-skill")).select_by_value("")
    assert "<script>window.__pwned=3</script>" in browser.find_element(By.ID, "decisions").text
    assert browser.execute_script("return window.__pwned === undefined") is True
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert _errors(browser) == []


def test_two_runs_open_on_the_flipped_requests_side_by_side(
    browser: WebDriver, flip_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, b = flip_runs
    _open(browser, write_view([a, b], tmp_path / "flips.html"))
    assert _errors(browser) == []
    shown_in_a = sum(bool(r.visible) for r in read_run(a).rows)
    assert _count(browser) == shown_in_a
    browser.find_element(By.CSS_SELECTOR, "#decisions tbody tr.decision").click()
    sides = browser.find_elements(By.CSS_SELECTOR, "tr.expanded .side > .detail")
    assert len(sides) == 2
    assert [len(s.find_elements(By.CSS_SELECTOR, "pre.listing")) for s in sides] == [1, 1]
    Select(browser.find_element(By.ID, "f-view")).select_by_value("1")
    assert _count(browser) == len(read_run(b).rows)


def test_the_quickstart_run_loads_filters_and_expands(browser: WebDriver, tmp_path: Path) -> None:
    """The README's run (its first 60 requests, the packaged embedding model included)."""
    config = load_config(Path(__file__).parents[2] / "configs" / "quickstart.yaml")
    run = run_experiment(config, output=tmp_path / "run", limit=60).run_dir
    rows = read_run(run).rows
    _open(browser, write_view([run], tmp_path / "view.html"))
    assert _errors(browser) == []
    # it opens on the selector under test; the oracle and never baselines are behind a switch
    assert _count(browser) == sum(r.selector == "embedding" for r in rows) == 60 * 6
    browser.find_element(By.ID, "f-baselines").click()
    assert _count(browser) == len(rows) == 60 * 18
    Select(browser.find_element(By.ID, "f-tag")).select_by_value("near-miss")
    assert _count(browser) == sum("near-miss" in r.tags for r in rows)
    Select(browser.find_element(By.ID, "f-outcome")).select_by_value("correct_skill")
    Select(browser.find_element(By.ID, "f-tag")).select_by_value("")
    browser.find_element(By.CSS_SELECTOR, "#decisions tbody tr.decision").click()
    mark = browser.find_element(By.CSS_SELECTOR, "tr.expanded pre.listing mark.expected")
    assert "chosen" in mark.get_attribute("class")  # a correct skill is the expected one
    assert _errors(browser) == []
