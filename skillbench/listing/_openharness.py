"""The OpenHarness profile (seed 003): every skill in full, no budget, no usage ordering."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from skillbench.catalog import OPENHARNESS, Skill
from skillbench.listing._profile import Profile, register_profile
from skillbench.listing._renderer import Entry, Layout, one_line
from skillbench.listing._types import EntryStatus

HEADER = "# Available Skills\n"


@dataclass(frozen=True)
class OpenHarnessRenderer:
    """``- **name**: description`` under ``# Available Skills``; any budget is ignored."""

    default_budget: int | None = None
    name: str = "openharness"
    budgeted: bool = False
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False

    def entry(self, skill: Skill, index: int) -> Entry:
        desc = one_line(skill.description)
        return Entry(skill, index, f"- **{skill.name}**: {desc}", "full", desc)

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        return {}

    def hidden(self, skill: Skill) -> str | None:
        return None

    def shown_path(self, skill: Skill) -> str | None:
        return None

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        entries = list(ordered)
        if not entries:
            return Layout("", None, [])
        text = HEADER + "\n" + "\n".join(e.text for e in entries)
        return Layout(text, None, [e.placed for e in entries])


def _openharness() -> OpenHarnessRenderer:
    return OpenHarnessRenderer()


register_profile(
    Profile(
        "openharness",
        OPENHARNESS,
        _openharness,
        placement="system",
        trigger="skill_tool",
        summary="every skill in full, no budget",
    )
)
