"""The viewer of a run whose model answered with 20 MB: a small page that a real headless
Chromium draws at once, showing the excerpt of the answer (head, size, digest)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from support.fake_openai import FakeOpenAI
from support.long_answers import HUGE_TEXT, KEY_ENV, long_answer_policy, write_long_answer_project

from skillbench.replay import load_config, run_experiment
from skillbench.results import read_run
from skillbench.view import write_view
from tests.view.pages import count as _count
from tests.view.pages import errors as _errors
from tests.view.pages import open_page as _open

pytestmark = pytest.mark.timeout(300)


def test_a_20_mb_answer_leaves_a_small_page_that_draws_its_rows(
    browser: WebDriver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-local")
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    with FakeOpenAI(policy=long_answer_policy) as server:
        config = load_config(write_long_answer_project(tmp_path / "project", server.base_url))
        run = run_experiment(config, output=tmp_path / "run").run_dir
    rows = read_run(run).rows
    page = write_view([run], tmp_path / "view.html")
    assert os.path.getsize(page) < 1_000_000

    browser.set_page_load_timeout(30)
    _open(browser, page)
    assert _errors(browser) == []
    assert _count(browser) == len(rows) == 4
    drawn = browser.find_elements(By.CSS_SELECTOR, "#decisions tbody tr.decision")
    assert len(drawn) == len(rows)
    chatty = next(tr for tr in drawn if "[[huge-text]]" in tr.text)
    chatty.click()
    shown = browser.find_element(By.CSS_SELECTOR, "tr.expanded").text
    digest = hashlib.sha256(HUGE_TEXT.encode()).hexdigest()
    assert HUGE_TEXT[:200] in shown and digest in shown and "20000000" in shown
    assert _errors(browser) == []
