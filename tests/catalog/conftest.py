"""Helpers to lay out skill trees in tmp_path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

WriteSkill = Callable[..., Path]


def skill_md(name: str | None, description: str | None = "Does a thing.", **extra: str) -> str:
    lines = ["---"]
    if name is not None:
        lines.append(f"name: {name}")
    if description is not None:
        lines.append(f"description: {description}")
    lines += [f"{key}: {value}" for key, value in extra.items()]
    return "\n".join([*lines, "---", "", f"Body of {name}.", ""])


@pytest.fixture
def write_skill() -> WriteSkill:
    """``write_skill(root, "a/b", name=…, description=…, **keys)`` writes root/a/b/SKILL.md."""

    def write(
        root: Path,
        folder: str,
        name: str | None = None,
        description: str | None = "Does a thing.",
        **extra: str,
    ) -> Path:
        path = root / folder / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(skill_md(name, description, **extra))
        return path

    return write
