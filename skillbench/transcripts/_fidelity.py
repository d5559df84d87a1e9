"""Fidelity: does skillbench's listing match what the agent really showed?

Each listing an import kept (``listings.jsonl``, from an agent whose logs record them) holds
the entry lines the model saw. The same skills are rendered with the public
``render_listing`` API (the agent's profile, by default in the recorded order, so only entry
text and budget are under test) and the two compared byte for byte. A recording may lack
the ``<system-reminder>`` wrapper and the header line of the rendering; whatever of those it
lacks is left out of the rendering before comparing, so only the entries are judged.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from skillbench.agents import TextComparison, compare_text
from skillbench.catalog import Skill
from skillbench.listing import render_listing
from skillbench.transcripts._json_lines import json_objects
from skillbench.transcripts._types import LogProblem
from skillbench.types import JsonObject

_WRAP_OPEN = "<system-reminder>\n"
_WRAP_CLOSE = "\n</system-reminder>"


@dataclass(frozen=True, slots=True)
class ListingDiff:
    """One recorded listing against skillbench's rendering of the same skills.

    Attributes:
        source: where the recorded listing is (``file:line``).
        session: the session it was shown in.
        recorded_bytes: UTF-8 size of the recorded listing.
        rendered_bytes: UTF-8 size of skillbench's (same parts only).
        first_difference: byte offset of the first difference, None when identical.
        lines: the differing lines, unified-diff style without context (``-`` recorded,
            ``+`` skillbench), empty when identical.
        missing: recorded names the catalog does not hold.
    """

    source: str
    session: str
    recorded_bytes: int
    rendered_bytes: int
    first_difference: int | None
    lines: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def identical(self) -> bool:
        return self.first_difference is None and not self.missing


def compare_listing(recorded: str, rendered: str) -> TextComparison:
    """Compare a recorded listing with skillbench's ``Listing.text`` byte for byte, leaving
    out of the rendering the wrapper and header the recording lacks."""
    return compare_text(recorded, _comparable(recorded, rendered))


def _comparable(recorded: str, rendered: str) -> str:
    """``rendered`` without the wrapper and header when the recording has neither."""
    text = rendered
    if not recorded.startswith(_WRAP_OPEN) and text.startswith(_WRAP_OPEN):
        text = text.removeprefix(_WRAP_OPEN).removesuffix(_WRAP_CLOSE)
    if recorded.startswith("- ") and not text.startswith("- "):
        _, sep, rest = text.partition("\n- ")
        text = "- " + rest if sep else text
    return text


def check_listings(
    skills: Sequence[Skill],
    listings: str | Path,
    *,
    profile: str,
    budget: int | None = None,
    ordering: str = "given",
    include_deltas: bool = False,
) -> Iterator[ListingDiff | LogProblem]:
    """Compare each recorded listing in ``listings`` (an import's ``listings.jsonl``).

    Args:
        skills: the catalog.
        listings: JSONL of recorded listings (``names``, ``content``, ``initial``, …).
        profile: the profile of the agent that recorded them.
        budget: the profile's budget option (None: its default).
        ordering: ``given`` keeps the recorded order; any other ordering spec is applied.
        include_deltas: also compare later (non-initial) listings, which list only the
            skills added since.
    """
    by_name = {s.name: s for s in skills}
    listings = Path(listings)
    for item in json_objects(listings):
        if isinstance(item, LogProblem):
            yield item
            continue
        number, record = item
        where = f"{listings}:{number}"
        names, content = record.get("names"), record.get("content")
        if not isinstance(names, list) or not isinstance(content, str):
            yield LogProblem(str(listings), number, "skipped", "needs 'names' (list), 'content'")
            continue
        if record.get("initial") is False and not include_deltas:
            continue
        shown = [by_name[str(n)] for n in names if str(n) in by_name]
        missing = tuple(str(n) for n in names if str(n) not in by_name)
        listing = render_listing(shown, profile=profile, budget=budget, ordering=ordering)
        found = compare_listing(content, listing.text)
        yield ListingDiff(
            source=str(record.get("log") or where),
            session=str(record.get("session") or ""),
            recorded_bytes=len(content.encode("utf-8")),
            rendered_bytes=found.compared_bytes,
            first_difference=found.first_difference,
            lines=found.lines,
            missing=missing,
        )


def diff_json(diff: ListingDiff) -> JsonObject:
    return {
        "source": diff.source,
        "session": diff.session,
        "identical": diff.identical,
        "recorded_bytes": diff.recorded_bytes,
        "rendered_bytes": diff.rendered_bytes,
        "first_difference": diff.first_difference,
        "lines": list(diff.lines),
        "missing": list(diff.missing),
    }
