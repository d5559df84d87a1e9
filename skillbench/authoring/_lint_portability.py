"""Portability lint: what changes when the same skill folder meets another agent.

Every finding names the agents (and their verified versions) it affects, from each agent's
own profile: the folders it reads, the skills its rules leave out, the fields it ignores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Sequence

from skillbench.authoring._rules import (
    AGENT_DROPS,
    AGENT_HIDES,
    AGENT_MISSES_NESTED,
    AGENT_READS_DIFFERENTLY,
    DISABLE_IGNORED,
    NOT_FOUND,
    Finding,
    Rule,
)
from skillbench.catalog import SourceSpec, parse_source_arg
from skillbench.listing import (
    SHOWN_STATUSES,
    DivergenceKind,
    agent_folders,
    agent_views,
    divergences,
)

_DIVERGENCE_RULES: dict[DivergenceKind, Rule] = {
    "undiscovered": AGENT_MISSES_NESTED,
    "rejected": AGENT_HIDES,
    "renamed": AGENT_READS_DIFFERENTLY,
    "reads_differently": AGENT_READS_DIFFERENTLY,
    "dropped": AGENT_DROPS,
}

KeyLine = Callable[[str | None, str], int | None]
"""The line of a frontmatter key in a file (None: unknown)."""


def _widest(agents: Sequence[str]) -> tuple[str, list[str]]:
    """The project folder read by the most of ``agents``, and those agents."""
    readers: dict[str, list[str]] = defaultdict(list)
    folders = agent_folders()
    for agent in agents:
        for folder in folders.get(agent, {}).get("project", ()):
            readers[folder].append(agent)
    best = max(readers, key=lambda f: len(readers[f]), default=".agents/skills")
    return best, readers.get(best, [])


def portability_findings(
    sources: Sequence[SourceSpec | str], key_line: KeyLine, refused: Collection[str] = ()
) -> list[Finding]:
    """One finding per skill some agents never find, per skill and agent whose rules hide
    it, per skill whose ``disable-model-invocation`` some agents ignore, and per way some
    agents read, reach or list a skill differently from what its author wrote. Only
    ``SKILL.md`` folders are judged: the other declarations are one agent's own format. A
    file in ``refused`` already has a finding of its own: how each agent copes with that
    defect is not news, except that some agent loads it anyway (one finding per file)."""
    specs = [parse_source_arg(s) if isinstance(s, str) else s for s in sources]
    views = agent_views(specs)
    named = {v.profile: f"{v.profile} {v.version}" for v in views}
    missing: dict[tuple[str | None, str], list[str]] = defaultdict(list)
    reasons: dict[tuple[str | None, str], str] = {}
    findings: list[Finding] = []
    disabled_by: dict[tuple[str | None, str], list[str]] = defaultdict(list)
    listed_by: dict[tuple[str | None, str], list[str]] = defaultdict(list)
    for view in views:
        for lost in view.not_found:
            key = (lost.skill.path, lost.skill.name)
            missing[key].append(view.profile)
            reasons[key] = lost.reason.split(" (")[0].split(" does not read ")[-1]
        for entry in view.listing.entries:
            if not (entry.skill.path or "").endswith("SKILL.md"):
                continue  # other declarations are one agent's format, not a portable skill
            key = (entry.skill.path, entry.name)
            if entry.status == "hidden":
                field = "description" if "description" in entry.reason else None
                findings.append(
                    Finding(
                        AGENT_HIDES,
                        entry.skill.path,
                        key_line(entry.skill.path, field) if field else None,
                        f"{named[view.profile]} leaves it out: {entry.reason}",
                        entry.name,
                        view.profile,
                        field,
                    )
                )
            if entry.status == "disabled":
                disabled_by[key].append(view.profile)
            elif entry.status in SHOWN_STATUSES:
                listed_by[key].append(view.profile)
    widest, readers = _widest(list(named))
    for (path, name), agents in missing.items():
        findings.append(
            Finding(
                NOT_FOUND,
                path,
                None,
                f"in {reasons[(path, name)]}: never found by "
                f"{', '.join(named[a] for a in agents)}; {widest} is read by "
                f"{', '.join(readers)}",
                name,
            )
        )
    for (path, name), agents in listed_by.items():
        if disabled_by.get((path, name)):
            findings.append(
                Finding(
                    DISABLE_IGNORED,
                    path,
                    key_line(path, "disable-model-invocation"),
                    f"listed for the model anyway by {', '.join(named[a] for a in agents)} "
                    f"(kept out by {', '.join(disabled_by[(path, name)])})",
                    name,
                    field="disable_model_invocation",
                )
            )
    loaded_anyway: set[str] = set()
    for d in divergences(specs, views):
        if d.path in refused:
            if d.kind != "reads_differently" or d.field is not None or d.path in loaded_anyway:
                continue
            loaded_anyway.add(d.path)
        line = key_line(d.path, d.field) if d.field else None
        findings.append(
            Finding(_DIVERGENCE_RULES[d.kind], d.path, line, d.message, d.name, None, d.field)
        )
    return findings
