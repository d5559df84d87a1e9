"""Fidelity: capture what the agent sends, render the same skills, compare byte for byte."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.agents._capture import (
    Capture,
    capture_agent,
    temporary_folder,
    terminated_as_interrupt,
)
from skillbench.agents._driver import AGENTS
from skillbench.agents._executable import agent_version, find_executable, verified_versions
from skillbench.catalog import PRECEDENCE, SourceSpec, load_catalog, parse_source_arg
from skillbench.listing import PROFILES, Listing, Profile, RenderOptions, render_listing
from skillbench.types import JsonObject


class TextComparison(NamedTuple):
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


def compare_text(recorded: str, rendered: str) -> TextComparison:
    """Compare two listings byte for byte."""
    a, b = recorded.encode("utf-8"), rendered.encode("utf-8")
    if a == b:
        return TextComparison(None, (), len(b))
    pairs = zip(a, b, strict=False)
    first = next((i for i, (x, y) in enumerate(pairs) if x != y), min(len(a), len(b)))
    diff = difflib.unified_diff(
        recorded.splitlines(), rendered.splitlines(), "recorded", "skillbench", n=0, lineterm=""
    )
    return TextComparison(first, tuple(diff), len(b))


@dataclass(frozen=True)
class AgentFidelity:
    """A live capture against skillbench's rendering of the same installed skills."""

    agent: str
    version: str
    listing: str
    rendered: str
    comparison: TextComparison
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


@dataclass(frozen=True)
class RenderInputs:
    """Everything skillbench's render of a capture is given, all read from the capture, so
    ``fidelity --agent`` is exactly ``render`` with the capture's inputs.

    Attributes:
        profile: the agent's profile.
        sources: the skills as the capture installed them.
        options: the profile options that reproduce the capture's setting (snapshot, window,
            budget from the environment, settings such as a budget fraction).
        scores: the seeded usage history (a count used just now scores the count).
        ordering: the profile's own (the agent's) order.
        cwd: the project the agent ran in, against which ``paths`` skills are matched.
        notes: what the profile cannot model of the capture.
    """

    profile: str
    sources: tuple[SourceSpec, ...]
    options: RenderOptions
    scores: Mapping[str, float]
    ordering: str
    cwd: str
    notes: tuple[str, ...] = ()


def release_profile(capture: Capture) -> tuple[Profile, tuple[str, ...]]:
    """The profile of the captured release; the newest verified one, with a note, when that
    release was not verified."""
    profile = PROFILES.get(capture.agent)
    if capture.version in profile.verified_versions:
        return profile.at(capture.version), ()
    return profile, (
        f"{capture.agent} {capture.version} is not a verified release: rendered with the "
        f"rules of {capture.agent} {profile.agent_version}",
    )


def render_inputs(capture: Capture, profile: Profile | None = None) -> RenderInputs:
    """The render inputs of ``capture`` (see ``RenderInputs``), with the profile of the
    captured release unless ``profile`` is given."""
    driver = AGENTS.get(capture.agent)
    release_notes: tuple[str, ...] = ()
    if profile is None:
        profile, release_notes = release_profile(capture)
    wanted = driver.render_options(capture)
    options = {k: v for k, v in wanted.items() if k in profile.options}
    notes = [
        f"profile {profile.name!r} has no option {k!r}: rendered without it"
        for k in wanted
        if k not in options
    ]
    return RenderInputs(
        profile=profile.name,
        sources=tuple(driver.installed(capture.workspace)),
        options=options,
        scores={name: float(count) for name, count in capture.usage.items()},
        ordering=profile.ordering,
        cwd=str(capture.project),
        notes=(*capture.notes, *release_notes, *notes),
    )


def render_capture(inputs: RenderInputs, listed: str | None = None) -> Listing:
    """Load and render the installed skills exactly as ``skillbench render`` would; where
    the agent's clashes are racy (``Precedence.clash``), of two same-named skills the one
    whose file ``listed`` (the agent's listing) names is kept."""
    catalog = load_catalog(inputs.sources, profile=inputs.profile, cwd=inputs.cwd)
    skills = list(catalog.skills)
    if listed is not None and PRECEDENCE.get(inputs.profile).clash == "racy":
        for clash in catalog.overrides:
            kept, other = clash.winner, clash.loser
            shown = bool(other.path and other.path in listed)
            if shown and kept in skills and not (kept.path and kept.path in listed):
                skills[skills.index(kept)] = other
    return render_listing(
        skills,
        profile=inputs.profile,
        ordering=inputs.ordering,
        scores=inputs.scores,
        inactive=catalog.inactive,
        options=inputs.options,
    )


def compare_capture(capture: Capture, profile: Profile | None = None) -> AgentFidelity:
    """Render what ``capture`` installed from its own inputs (``render_inputs``) and compare
    it with what the agent sent."""
    inputs = render_inputs(capture, profile)
    listing = render_capture(inputs, capture.listing)
    return AgentFidelity(
        agent=capture.agent,
        version=capture.version,
        listing=capture.listing,
        rendered=listing.text,
        comparison=compare_text(capture.listing, listing.text),
        notes=inputs.notes,
    )


def failed_as_predicted(
    agent: str, version: str, profile: str, sources: Sequence[SourceSpec], error: SkillbenchError
) -> AgentFidelity:
    """The outcome of a capture that failed with ``error``: agreement when ``profile`` says a
    file of ``sources`` makes the agent fail every turn (both sides show no listing), else
    ``error`` raised again."""
    diagnostics = load_catalog(list(sources), profile=profile).diagnostics
    fatal = next((d for d in diagnostics if d.agent_fails), None)
    if fatal is None:
        raise error
    note = f"{agent} sent no listing, as its profile predicts ({fatal}); the agent said: {error}"
    return AgentFidelity(agent, version, "", "", TextComparison(None, (), 0), (note,))


def agent_fidelity(
    agent: str, sources: Sequence[SourceSpec | str], **capture: Any
) -> AgentFidelity:
    """Capture ``agent`` with ``sources`` installed and render the installed skills with
    skillbench's profile of the captured release, from the capture's own inputs (a capture
    that fails is judged by ``failed_as_predicted``, under the installed release's rules
    where they are verified, else the newest release's)."""
    specs = [parse_source_arg(s) if isinstance(s, str) else s for s in sources]
    with terminated_as_interrupt(), temporary_folder("skillbench-fidelity-") as tmp:
        try:
            captured = capture_agent(agent, specs, workdir=tmp, **capture)
        except SkillbenchError as exc:
            driver = AGENTS.get(agent)
            version = agent_version(capture.get("executable") or find_executable(driver))
            profile = f"{agent}@{version}" if version in verified_versions(agent) else agent
            return failed_as_predicted(agent, version, profile, specs, exc)
        return compare_capture(captured)
