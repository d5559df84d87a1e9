"""The README: short, every page it sends a reader to exists, and what it says
``skillbench --version`` prints is what the installed command prints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_keeps_the_two_commands_the_tables_and_the_tour() -> None:
    agents = len(re.findall(r"^\| \[.*\]\(docs/profiles/", README, re.MULTILINE))
    assert len(README.splitlines()) <= 160 + agents  # short, but one table row per agent
    assert ".venv/bin/skillbench run configs/quickstart.yaml" in README
    assert "pip install -q -e '.[test]' && .venv/bin/pytest" in README
    assert "| budget | embedding, usage order |" in README
    assert "| profile | budget | lexical | oracle |" in README
    assert "| agent | verified releases (CI pin first) | package | its listing |" in README
    assert "## A tour of the CLI" in README


def test_every_linked_page_exists() -> None:
    linked = set(re.findall(r"\]\((docs/[^)#]+)\)", README))
    assert len(linked) >= 15
    missing = sorted(p for p in linked if not (ROOT / p).exists())
    assert missing == []
    named = set(re.findall(r"`?(docs/[\w./-]+\.md)`?", README))
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_the_version_the_readme_quotes_is_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "skillbench", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    printed = done.stdout.strip()
    assert f"`{printed}`" in README
    assert "skill-selection benchmark" in printed
