"""Fidelity: capture what the agent sends, render the same skills, compare byte for byte."""

from __future__ import annotations

import difflib
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from skillbench.agents._capture import Capture, capture_agent
from skillbench.agents._spec import AGENTS
from skillbench.catalog import SourceSpec, load_catalog, parse_source_arg
from skillbench.listing import PROFILES, Profile, render_listing
from skillbench.types import JsonObject


class Comparison(NamedTuple):
    """Where a recorded listing and skillbench's rendering part ways.

    Attributes:
        first_difference: byte offset of the first difference; None when identical.
        lines: the differing lines, unified-diff style without context (``-`` recorded,
            ``+`` skillbench).
        compared_bytes: UTF-8 size of skillbench's text.
    """

    first_difference: int | None
    lines: tuple[str, ...]
    compared_bytes: int


def compare_text(recorded: str, rendered: str) -> Comparison:
    """Compare two listings byte for byte."""
    a, b = recorded.encode("utf-8"), rendered.encode("utf-8")
    if a == b:
        return Comparison(None, (), len(b))
    pairs = zip(a, b, strict=False)
    first = next((i for i, (x, y) in enumerate(pairs) if x != y), min(len(a), len(b)))
    diff = difflib.unified_diff(
        recorded.splitlines(), rendered.splitlines(), "recorded", "skillbench", n=0, lineterm=""
    )
    return Comparison(first, tuple(diff), len(b))


@dataclass(frozen=True)
class AgentFidelity:
    """A live capture against skillbench's rendering of the same installed skills."""

    agent: str
    version: str
    listing: str
    rendered: str
    comparison: Comparison
    notes: tuple[str, ...]

    @property
    def identical(self) -> bool:
        return self.comparison.first_difference is None

    @property
    def first_difference(self) -> int | None:
        return self.comparison.first_difference

    @property
    def lines(self) -> tuple[str, ...]:
        return self.comparison.lines

    def to_json(self) -> JsonObject:
        return {
            "agent": self.agent,
            "version": self.version,
            "identical": self.identical,
            "recorded_bytes": len(self.listing.encode("utf-8")),
            "rendered_bytes": self.comparison.compared_bytes,
            "first_difference": self.first_difference,
            "lines": list(self.lines),
            "notes": list(self.notes),
        }


def agent_fidelity(
    agent: str, sources: Sequence[SourceSpec | str], **capture: Any
) -> AgentFidelity:
    """Capture ``agent`` with ``sources`` installed and render the installed skills with
    skillbench's profile of the captured release (the newest verified one, with a note, when
    that release was not verified)."""
    specs = [parse_source_arg(s) if isinstance(s, str) else s for s in sources]
    with tempfile.TemporaryDirectory(prefix="skillbench-fidelity-") as tmp:
        cap = capture_agent(agent, specs, workdir=tmp, **capture)
        profile = PROFILES.get(agent)
        notes = list(cap.notes)
        if cap.version in profile.verified_versions:
            profile = profile.at(cap.version)
        else:
            notes.append(f"rendered with the rules of {agent} {profile.agent_version}")
        result = compare_capture(cap, profile)
        return replace(result, notes=(*notes, *result.notes))


def compare_capture(cap: Capture, profile: Profile) -> AgentFidelity:
    """Render the skills ``cap`` installed with ``profile`` as ``render`` would with the
    capture's inputs (its snapshot and setting as profile options, the agent's order, the
    seeded usage, ``paths`` matched in its project) and compare with what the agent sent."""
    spec = AGENTS.get(cap.agent)
    wanted = spec.render_options(cap)
    options = {k: v for k, v in wanted.items() if k in profile.options}
    notes = [
        f"profile {profile.name!r} has no option {k!r}: rendered without it"
        for k in wanted
        if k not in options
    ]
    catalog = load_catalog(spec.installed(cap.workspace), profile=profile.name, cwd=cap.project)
    listing = render_listing(
        catalog.skills,
        profile=profile.name,
        ordering=profile.ordering,
        scores={name: float(count) for name, count in cap.usage.items()},
        inactive=catalog.inactive,
        options=options,
    )
    return AgentFidelity(
        agent=cap.agent,
        version=cap.version,
        listing=cap.listing,
        rendered=listing.text,
        comparison=compare_text(cap.listing, listing.text),
        notes=tuple(notes),
    )
