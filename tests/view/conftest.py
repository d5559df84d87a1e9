"""Real run directories for the viewer: a tiny hostile catalog replayed by real selectors."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

from skillbench.replay import load_config, run_experiment

HOSTILE = (
    "Deploy the app </script><script>window.__pwned=1</script>"
    "<img src=x onerror=window.__pwned=2> & ship it"
)
SKILLS = {
    "deploy": HOSTILE,
    "notes": "Write release notes for a version from the merged changes.",
    "lint": "Run the linters and fix what they report in the source tree.",
}
REQUESTS = [
    ("q1", "Ship the new build to production", ["deploy"], ["normal"]),
    ("q2", "Draft release notes for 2.0", ["notes"], ["normal"]),
    ("q3", "<script>window.__pwned=3</script> fix the lint errors", ["lint"], ["abnormal"]),
    ("q4", "What time is it?", [], ["negative", "near-miss"]),
    ("q5", "Write notes for the 2.1 release", ["notes"], ["boundary"]),
    ("q6", "Tell me a joke", [], ["negative"]),
]


def write_inputs(root: Path, selectors: str, name: str = "hostile") -> Path:
    """Catalog, requests and config under ``root``; returns the config path."""
    for skill, description in SKILLS.items():
        folder = root / "skills" / skill
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {skill}\ndescription: {json.dumps(description)}\n---\nbody\n",
            encoding="utf-8",
        )
    with (root / "requests.jsonl").open("w", encoding="utf-8") as fh:
        for i, (rid, text, expected, tags) in enumerate(REQUESTS):
            at = f"2025-01-0{i + 1}T10:00:00Z"
            record = {"id": rid, "text": text, "expected": expected, "tags": tags, "at": at}
            fh.write(json.dumps(record) + "\n")
    config = root / f"{name}.yaml"
    config.write_text(
        f"name: {name}\ncatalogs:\n  base: [{{path: skills, source: project}}]\n"
        "requests: requests.jsonl\nbudgets: [100, 4000]\norderings: [usage, alpha]\n"
        f"selectors:\n{selectors}seed: 0\n",
        encoding="utf-8",
    )
    return config


def replay(root: Path, selectors: str, name: str = "hostile") -> Path:
    config = load_config(write_inputs(root, selectors, name))
    return run_experiment(config, output=root / "run").run_dir


@pytest.fixture(scope="session")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Oracle and never over the hostile catalog at a tight and a roomy budget."""
    root = tmp_path_factory.mktemp("hostile")
    return replay(root, "  - {type: oracle}\n  - {type: never}\n")


@pytest.fixture(scope="session")
def flip_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same cells twice: an oracle, then a selector that never invokes, both named ``sel``."""
    a = replay(tmp_path_factory.mktemp("a"), "  - {type: oracle, name: sel}\n", "a")
    b = replay(tmp_path_factory.mktemp("b"), "  - {type: never, name: sel}\n", "b")
    return a, b


FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        if os.environ.get("SKILLBENCH_REQUIRE_BROWSER"):
            pytest.fail("SKILLBENCH_REQUIRE_BROWSER is set but chromium/chromedriver are missing")
        pytest.skip(
            "chromium and chromedriver are not installed here "
            "(.ci/run installs them: apt-get install chromium chromium-driver)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(driver))
    yield browser
    browser.quit()
