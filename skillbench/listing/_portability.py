"""One catalog, every shipped agent: what each would find, load and list of the same skills.

A skill folder is portable only if every agent looks where it lies: one agent reads
``.claude/skills``, another only ``.agents/skills`` or a folder of its own. A source whose
folder names an agent's skills folder (``.claude/skills``, ``~/.agents/skills`` …) is given
only to the agents that read that folder (their records say which); a source elsewhere
stands for "installed where each agent looks". What each agent then loads, rejects and
lists comes from its own profile, at its verified version.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from skillbench.agentspec import AGENT_SPECS
from skillbench.catalog import (
    Catalog,
    Skill,
    SourceKind,
    SourceSpec,
    load_catalog,
    parse_source_arg,
)
from skillbench.listing._explain import Explanation, explain
from skillbench.listing._plan import render_listing
from skillbench.listing._profile import PROFILES
from skillbench.listing._types import Listing


def agent_folders() -> dict[str, dict[SourceKind, tuple[str, ...]]]:
    """The project and user skills folders each known agent reads (project folders relative
    to the project root), from the agents' records."""
    return {
        spec.name: {scope: spec.reads(scope) for scope in ("project", "user")}
        for spec in AGENT_SPECS.values()
    }


def known_folders() -> list[str]:
    """Every agent's project or user skills folder, longest first (``.config/agents/skills``
    before ``.agents/skills``)."""
    scopes = agent_folders().values()
    found = {f.removeprefix("~/") for scope in scopes for fs in scope.values() for f in fs}
    return sorted(found, key=len, reverse=True)


def folder_of(source: SourceSpec) -> str | None:
    """The agent skills folder ``source`` lies in (``.claude/skills``, with ``~/`` for a user
    folder), or None for a folder no agent reads by itself."""
    path = Path(os.path.abspath(os.path.expanduser(source.path))).as_posix()
    home = Path(os.path.expanduser("~")).as_posix()
    for folder in known_folders():
        if path == f"{home}/{folder}" or path.startswith(f"{home}/{folder}/"):
            return f"~/{folder}"
        if path.endswith(f"/{folder}") or f"/{folder}/" in path:
            return folder
    return None


def unread_by(agent: str, source: SourceSpec) -> str | None:
    """Why ``agent`` would not find ``source``'s skills (None: it would, or its folders are
    not known)."""
    folder = folder_of(source)
    scopes = agent_folders().get(PROFILES.get(agent).agent) if agent in PROFILES else None
    if folder is None or scopes is None:
        return None
    reads = {f for fs in scopes.values() for f in fs}
    if folder in reads:
        return None
    return f"{agent} does not read {folder} (it reads {', '.join(sorted(reads))})"


@dataclass(frozen=True)
class NotFound:
    """A skill an agent would never see, and why."""

    skill: Skill
    reason: str


@dataclass(frozen=True)
class AgentView:
    """What one agent makes of the sources.

    Attributes:
        profile / version: the agent's profile and the version it was verified against.
        catalog: what its loader keeps of the sources it reads.
        listing: its listing of them (its own budget and order unless given).
        rows: every kept skill's fate and the rule behind it.
        not_found: skills in folders it does not read.
        rejected: files its loader refused (``file:line: message``).
    """

    profile: str
    version: str
    catalog: Catalog
    listing: Listing
    rows: tuple[Explanation, ...]
    not_found: tuple[NotFound, ...]
    rejected: tuple[str, ...]


def agent_profiles() -> list[str]:
    """Every registered profile verified against a shipped agent, by name: each agent once,
    as its newest verified release (``agent@version`` names are the same agent)."""
    return sorted(
        p
        for p in PROFILES.names()
        if PROFILES.get(p).agent_version is not None and PROFILES.get(p).agent == p
    )


def agent_views(
    sources: Sequence[SourceSpec | str],
    *,
    budget: int | None = None,
    cwd: str | None = None,
    profiles: Sequence[str] | None = None,
) -> list[AgentView]:
    """Each agent's view of ``sources`` (specs or ``kind=path`` strings; every verified
    agent unless ``profiles``)."""
    specs = [parse_source_arg(s) if isinstance(s, str) else s for s in sources]
    views = []
    for profile in profiles or agent_profiles():
        found = [s for s in specs if unread_by(profile, s) is None]
        missed = [s for s in specs if unread_by(profile, s) is not None]
        catalog = load_catalog(found, profile=profile, cwd=cwd)
        listing = render_listing(
            catalog.skills,
            profile=profile,
            budget=budget,
            ordering=PROFILES.get(profile).ordering,
            inactive=catalog.inactive,
        )
        not_found = []
        for source in missed:
            reason = unread_by(profile, source) or ""
            lost = load_catalog([source], profile=profile).skills
            not_found += [NotFound(s, reason) for s in lost]
        rejected = tuple(
            f"{d.path}{f':{d.line}' if d.line else ''}: {d.reason}"
            for d in catalog.diagnostics
            if d.severity == "error"
        )
        views.append(
            AgentView(
                profile,
                str(PROFILES.get(profile).agent_version),
                catalog,
                listing,
                tuple(explain(listing, catalog)),
                tuple(not_found),
                rejected,
            )
        )
    return views
