"""The viewer shows, for a request imported from a session log, why its expected skill did or
did not fire in that session (the import's turn classes)."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from skillbench.cli._main import main
from skillbench.replay import load_config, run_experiment
from skillbench.view import write_view
from tests.transcripts.class_logs import CC_LABELS, claude_code_logs, write_catalog, write_labels
from tests.view.pages import count, errors, open_page


def _imported_run(root: Path) -> Path:
    skills = write_catalog(root / "skills")
    logs = claude_code_logs(root / "logs")
    labels = write_labels(root / "labels.jsonl", CC_LABELS)
    args = ["import", "claude-code", str(logs), "-o", str(root / "mine"), "--skills", str(skills)]
    assert main([*args, "--labels", str(labels), "-q"]) == 0
    config = root / "mine.yaml"
    config.write_text(
        "name: mine\ncatalogs:\n  mine: [{path: skills, source: user}]\n"
        "requests: mine/requests.jsonl\nbudgets: [8000]\norderings: [alpha]\n"
        "selectors:\n  - {type: never}\nseed: 0\n",
        encoding="utf-8",
    )
    return run_experiment(load_config(config), output=root / "run").run_dir


def _detail(browser: WebDriver, text: str) -> list[str]:
    """The "in the session" line of the one request whose text holds ``text``."""
    box = browser.find_element(By.ID, "f-text")
    box.clear()
    box.send_keys(text)
    assert count(browser) == 1
    browser.find_element(By.CSS_SELECTOR, "#decisions tbody tr.decision").click()
    shown = browser.find_elements(By.CSS_SELECTOR, "tr.expanded dd.session-class")
    found = [dd.text for dd in shown]
    browser.find_element(By.CSS_SELECTOR, "#decisions tbody tr.decision").click()
    return found


def test_each_imported_turn_shows_its_class(browser: WebDriver, tmp_path: Path) -> None:
    run = _imported_run(tmp_path)
    open_page(browser, write_view([run], tmp_path / "view.html"))
    assert errors(browser) == []
    # classes worked out by hand in tests/transcripts/test_import_classes.py
    assert _detail(browser, "clean up the warnings") == ["lint: listed_cut (name_only)"]
    assert _detail(browser, "add an index") == ["migrate: not_listed (paths)"]
    assert _detail(browser, "put the build on staging") == ["deploy: listed_not_invoked"]
    assert _detail(browser, "ship it") == ["deploy: invoked_by_model"]
    assert _detail(browser, "what time is it") == []  # expected no skill: no class
    assert errors(browser) == []
