"""Helpers for driving the viewer page in the browser fixture (``conftest.browser``)."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver


def open_page(browser: WebDriver, page: Path) -> None:
    browser.get(page.resolve().as_uri())
    assert browser.find_element(By.ID, "count")  # the script ran and drew the table


def errors(browser: WebDriver) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def count(browser: WebDriver) -> int:
    return int(browser.find_element(By.ID, "count").text.replace(",", ""))
