"""Skill folders with trigger eval sets, written on the fly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SKILLS = {
    "pdf-extract": (
        "Extract text and tables from PDF files. Use when the user wants the text or a table "
        "out of a PDF.",
        "Open the PDF, read each page, export tables as CSV.",
    ),
    "pdf-merge": (
        "Merge several PDF files into one document, in a chosen page order.",
        "List the PDFs, order them, write one combined PDF.",
    ),
    "git-rebase": (
        "Rebase a git branch onto another and resolve conflicts step by step.",
        "Use git rebase -i to squash, reorder or edit commits.",
    ),
    "docker-build": (
        "Build and tag Docker images from a Dockerfile, with build cache tips.",
        "Run docker build with tags and build args.",
    ),
}


def write_skill(root: Path, name: str, description: str, body: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n\n{body}\n",
        encoding="utf-8",
    )
    return folder


def write_set(skill_dir: Path, data: Any, name: str = "evals.json") -> Path:
    path = skill_dir / "evals" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    """Four skills under ``tmp_path/skills``; pdf-extract and pdf-merge have trigger sets."""
    root = tmp_path / "skills"
    for name, (description, body) in SKILLS.items():
        write_skill(root, name, description, body)
    write_set(
        root / "pdf-extract",
        [
            {"query": "get the text out of this pdf report", "should_trigger": True},
            {"query": "extract the table on page 3 of invoice.pdf", "should_trigger": True},
            {"query": "merge a.pdf and b.pdf into one file", "should_trigger": False},
            {"query": "rebase my feature branch on main", "should_trigger": False},
        ],
    )
    write_set(
        root / "pdf-merge",
        {
            "skill_name": "pdf-merge",
            "evals": [
                {"prompt": "combine these three PDFs into one", "should_trigger": True},
                {"prompt": "extract the text from report.pdf", "should_trigger": False},
                {"id": 1, "prompt": "merge the files", "expected_output": "one PDF"},
            ],
        },
    )
    return root
