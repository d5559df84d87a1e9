"""The codebot profile (the reference pipeline's ``RenderListing``), the default.

Budget accounting: the budget counts the listing block ``RenderListing`` returns (header,
entries, footer and the newlines joining them); the ``<system-reminder>`` wrapper around it
is not counted. Entries are added in order and rendering stops (break) at the first entry
that would push the block over the budget. When not even one entry fits, or nothing is
listable, the block is empty and no reminder is injected, like codebot's ``if skillBlock != ""``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from skillbench.catalog import CODEBOT, Skill
from skillbench.listing._profile import Profile, register_profile
from skillbench.listing._renderer import Entry, Layout, Placed, cap, one_line
from skillbench.listing._types import EntryStatus

HEADER = "The following skills are available for use with the Skill tool:"
FOOTER = (
    "IMPORTANT: Only use Skill for skills listed above - do not guess or use built-in CLI commands."
)
WRAP_OPEN = "<system-reminder>\n## Skills\n"
WRAP_CLOSE = "\n</system-reminder>"


@dataclass(frozen=True)
class CodebotRenderer:
    """Reference listing: ``- name argument-hint: description`` plus an optional ``when:`` line.

    Args:
        line_cap: characters per entry line (220).
        when_cap: characters per ``when:`` line (160).
        default_budget: total budget (4,000).
    """

    line_cap: int = 220
    when_cap: int = 160
    default_budget: int | None = 4000
    name: str = "codebot"
    budgeted: bool = True
    uses_scores: bool = True
    layout_uses_scores: bool = False
    stops_early: bool = True

    def entry(self, skill: Skill, index: int) -> Entry:
        hint = one_line(skill.argument_hint)
        desc = one_line(skill.description)
        head = f"- {skill.name}" + (f" {hint}" if hint else "") + ":"
        full_line = f"{head} {desc}" if desc else head
        line = cap(full_line, self.line_cap)
        truncated = line != full_line
        shown_desc = line[len(head) + 1 :] if desc else ""
        text, when = line, None
        raw_when = one_line(skill.when_to_use)
        if raw_when:
            full_when = f"when: {raw_when}"
            when_line = cap(full_when, self.when_cap)
            truncated = truncated or when_line != full_when
            when = when_line[len("when: ") :]
            text = f"{line}\n{when_line}"
        status: EntryStatus = "truncated" if truncated else "full"
        return Entry(skill, index, text, status, shown_desc, when)

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        return {
            "truncated": f"entry line cut at {self.line_cap} characters, when: line at "
            f"{self.when_cap}",
            "dropped": "budget reached: rendering stops at the first entry that does not fit "
            "and hides every later one",
        }

    def hidden(self, skill: Skill) -> str | None:
        return None

    def shown_path(self, skill: Skill) -> str | None:
        return None

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        limit = budget if budget is not None else float("inf")
        used = len(HEADER) + len(FOOTER) + 1
        parts: list[str] = [HEADER]
        shown: list[Placed] = []
        for e in ordered:
            p = e.placed
            if used + p.chars + 1 > limit:
                break
            used += p.chars + 1
            parts.append(e.text)
            shown.append(p)
        if not shown:
            return Layout("", 0, [])
        parts.append(FOOTER)
        return Layout(WRAP_OPEN + "\n".join(parts) + WRAP_CLOSE, used, shown)


UNCAPPED = 10**9
"""A cap no entry reaches."""


def _codebot(
    line_cap: int = 220, when_cap: int = 160, budget: int | None = 4000
) -> CodebotRenderer:
    return CodebotRenderer(line_cap=line_cap, when_cap=when_cap, default_budget=budget)


register_profile(
    Profile(
        "codebot",
        CODEBOT,
        _codebot,
        placement="reminder",
        trigger="skill_tool",
        summary="the reference pipeline: 4,000 characters, stops at the first entry that overflows",
        uncapped={"line_cap": UNCAPPED, "when_cap": UNCAPPED},
    )
)
