"""Hand-made skills shared by the listing tests."""

from __future__ import annotations

import pytest

from skillbench.catalog import Skill


@pytest.fixture
def seed_skills() -> list[Skill]:
    """The reference pipeline's bundled skills plus a disabled one."""
    return [
        Skill(
            "review",
            "Review changes for bugs, regressions, risks, and missing tests.",
            when_to_use="Use when the user asks for code review, patch review, or a "
            "merge-readiness check.",
            argument_hint="[scope]",
            source="bundled",
            path="/b/review/SKILL.md",
        ),
        Skill(
            "refactor",
            "Improve code structure while preserving behavior.",
            argument_hint="[scope]",
            source="bundled",
            path="/b/refactor/SKILL.md",
        ),
        Skill("manual", "Only by hand.", disable_model_invocation=True, source="user"),
    ]
