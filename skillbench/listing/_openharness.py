"""The OpenHarness profile: every skill in full, no budget, no usage ordering.

The text follows ``_build_skills_section`` in HKUDS/OpenHarness
(``src/openharness/prompts/context.py``, commit 1c468136): a ``# Available Skills`` heading,
a sentence on the ``skill`` tool, then ``- **name**: description`` per model-invocable skill,
in the order the skills were loaded. OpenHarness reads no ``paths`` field, so such skills are
always listed. Multi-line descriptions are folded to one line (OpenHarness prints them as
they are), so that every profile's entries stay one line each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from skillbench.catalog import OPENHARNESS, Skill
from skillbench.listing._profile import Profile, register_profile
from skillbench.listing._renderer import Entry, Layout, one_line
from skillbench.listing._types import EntryStatus

HEADER = (
    "# Available Skills\n\n"
    "The following skills are available via the `skill` tool. When a user's request matches a "
    'skill, invoke it with `skill(name="<skill_name>")` to load detailed instructions before '
    "proceeding.\n"
)


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
