"""Hand-built listings for selector tests (independent of the renderers)."""

from __future__ import annotations

from skillbench.catalog import Skill
from skillbench.dataset import LabelledRequest
from skillbench.listing import ListedSkill, Listing
from skillbench.selectors import Query

SKILLS = {
    "pdf-merge": Skill("pdf-merge", "Merge several PDF files into a single PDF document."),
    "git-commit": Skill(
        "git-commit", "Write a conventional commit message for the staged git changes."
    ),
    "weather": Skill("weather", "Report the current weather forecast for a city."),
    "translate": Skill("translate", "Translate text between human languages such as French."),
}


def listing(shown: list[str], hidden: list[str] = (), **overrides: ListedSkill) -> Listing:
    """Shown skills in order (full text), then hidden ones as budget-dropped entries."""
    entries = [
        overrides.get(n) or ListedSkill(SKILLS[n], "full", i, 80, SKILLS[n].description)
        for i, n in enumerate(shown)
    ]
    entries += [ListedSkill(SKILLS[n], "dropped", None, 0) for n in hidden]
    return Listing("codebot", 4000, "(listing text)", entries)


def query(text: str, expected: tuple[str, ...], lst: Listing, rid: str = "r", repeat: int = 0):
    return Query(LabelledRequest(rid, text, expected), lst, repeat=repeat)
