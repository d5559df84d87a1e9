"""File sizes and browser draw time of a run whose model answers with 20 MB.

A real OpenAI-compatible server on 127.0.0.1 (``tests/support/fake_openai.py``) answers one
request with 20,000,000 characters of text and another with a Skill call whose arguments
hold 20,000,000 characters (``tests/support/long_answers.py``). The run goes through the real
CLI twice, with ``--keep-raw`` (every answer whole, as before answers were bounded) and
without (a long answer kept as an excerpt), each into two folders; then ``skillbench view``
writes the one-run and the two-run page. Printed per mode: the size of ``results.jsonl``,
``decisions.csv``, ``report.html`` and both views, and, when Chromium and chromedriver are
installed, the seconds a headless Chromium takes from opening each view to drawing its rows
and then to open every drawn row's detail (``--draw-timeout`` caps each wait).

    .venv/bin/python benchmarks/long_answer_bench.py [--draw-timeout 120]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.fake_openai import FakeOpenAI  # noqa: E402
from support.long_answers import (  # noqa: E402
    KEY_ENV,
    REQUESTS,
    long_answer_policy,
    write_long_answer_project,
)


def _cli(*argv: str, env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "-m", "skillbench", *argv],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _mb(path: Path) -> str:
    return f"{path.stat().st_size / 1e6:8.2f} MB"


def _browser(timeout: float) -> object | None:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(flag)
    browser = webdriver.Chrome(options=options, service=Service(driver))
    browser.set_page_load_timeout(timeout)
    browser.set_script_timeout(timeout)
    return browser


def _draw_seconds(browser: object, page: Path, timeout: float) -> str:
    """Seconds from opening ``page`` until its script has drawn the decisions table (its
    row count shown, and the rows of the opening filter)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    start = time.perf_counter()
    try:
        browser.get(page.resolve().as_uri())  # type: ignore[attr-defined]
        WebDriverWait(browser, timeout).until(
            lambda b: b.find_elements(By.ID, "count") and b.find_element(By.ID, "count").text
        )
    except TimeoutException:
        browser.get("about:blank")  # type: ignore[attr-defined]
        return f"nothing drawn in {timeout:.0f} s"
    drawn = time.perf_counter() - start
    shown = browser.find_elements(  # type: ignore[attr-defined]
        By.CSS_SELECTOR, "#decisions tbody tr.decision"
    )
    start = time.perf_counter()
    for row in shown:
        row.click()
    WebDriverWait(browser, timeout).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, "tr.expanded")) == len(shown)
    )
    opened = time.perf_counter() - start
    return f"{drawn:6.1f} s ({len(shown)} rows drawn), {opened:6.1f} s to open every row"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draw-timeout", type=float, default=120.0)
    args = parser.parse_args()
    browser = _browser(args.draw_timeout)
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI(policy=long_answer_policy) as server:
        root = Path(tmp)
        config = write_long_answer_project(root / "project", server.base_url)
        env = {
            **os.environ,
            KEY_ENV: "sk-local",
            "SKILLBENCH_CACHE_DIR": str(root / "cache"),
            "HF_HUB_OFFLINE": "1",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        }
        for mode, flags in (("--keep-raw", ["--keep-raw"]), ("bounded", [])):
            runs = [root / f"{mode.strip('-')}-{i}" for i in (1, 2)]
            start = time.perf_counter()
            for run in runs:
                _cli("run", str(config), "-o", str(run), "--quiet", *flags, env=env)
            seconds = (time.perf_counter() - start) / 2
            _cli("report", str(runs[0]), "--format", "csv", env=env)
            one, two = runs[0] / "view.html", root / f"{mode.strip('-')}-two.html"
            _cli("view", str(runs[0]), "-o", str(one), env=env)
            _cli("view", str(runs[0]), str(runs[1]), "-o", str(two), env=env)
            print(f"{mode} (run {seconds:.1f} s)")
            for label, path in (
                ("results.jsonl", runs[0] / "results.jsonl"),
                ("decisions.csv", runs[0] / "decisions.csv"),
                ("report.html", runs[0] / "report.html"),
                ("view.html", one),
                ("two-run view", two),
            ):
                print(f"  {label:<14} {_mb(path)}")
            if browser is not None:
                print("  draw view.html: ", end="", flush=True)
                print(_draw_seconds(browser, one, args.draw_timeout))
                print("  draw two-run view: ", end="", flush=True)
                print(_draw_seconds(browser, two, args.draw_timeout))
        print(f"{len(REQUESTS)} requests, two answered with 20,000,000 characters each")
    if browser is not None:
        browser.quit()  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
