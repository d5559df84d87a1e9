"""Agents that take each source kind in one folder of their own: the shared parts.

An agent module gives a table (source kind → HOME or project, and the folder under it) and
a function that finds its listing in a request body; these helpers lay sources out, read
them back and pick the request that carries the listing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import ClassVar

from skillbench._errors import SkillbenchError
from skillbench.agents._recorder import Recorded, objects
from skillbench.agents._spec import Workspace, copy_skills
from skillbench.catalog import SourceKind, SourceSpec
from skillbench.types import JsonObject

Folders = Mapping[SourceKind, tuple[str, str]]
"""Source kind → (``home`` or ``project``, the folder under it)."""


def kind_folders(workspace: Workspace, table: Folders) -> dict[SourceKind, Path]:
    """Each source kind's folder in ``workspace``."""
    return {
        kind: (workspace.project if base == "project" else workspace.home) / relative
        for kind, (base, relative) in table.items()
    }


def copy_sources(
    agent: str, table: Folders, sources: Sequence[SourceSpec], workspace: Workspace
) -> None:
    """Copy every source's skill folders where ``agent`` looks for its kind; a kind it has
    no folder for is an error naming the source."""
    folders = kind_folders(workspace, table)
    for source in sources:
        if source.kind not in folders:
            raise SkillbenchError(
                f"{source.kind}={source.path}: {agent} has no folder for {source.kind} skills "
                "that a capture can fill (its own skills come from the agent)"
            )
        copy_skills(source, folders[source.kind], workspace)


def installed_sources(workspace: Workspace, table: Folders) -> list[SourceSpec]:
    """The sources as laid out in ``workspace``, the folders that exist."""
    found = [SourceSpec(str(f), kind) for kind, f in kind_folders(workspace, table).items()]
    return [s for s in found if Path(s.path).is_dir()]


def carrying(
    agent: str, requests: Sequence[Recorded], find: Callable[[JsonObject], str | None]
) -> Recorded:
    """The first request whose body holds the listing ``find`` looks for."""
    for recorded in requests:
        if find(recorded.body) is not None:
            return recorded
    raise SkillbenchError(f"{agent} sent no request carrying a skill listing")


def listing_of(agent: str, body: JsonObject, find: Callable[[JsonObject], str | None]) -> str:
    """The listing ``find`` finds in ``body``; its absence is an error."""
    listing = find(body)
    if listing is None:
        raise SkillbenchError(f"{agent}: the request carries no skill listing")
    return listing


def block_between(texts: Iterable[str], open_tag: str, close_tag: str) -> str | None:
    """The first ``open_tag`` … ``close_tag`` block of ``texts``, tags included."""
    for text in texts:
        start = text.find(open_tag)
        end = text.find(close_tag, start)
        if start >= 0 and end >= 0:
            return text[start : end + len(close_tag)]
    return None


def write_settings(
    agent: str, path: Path, settings: Mapping[str, object], usage: Mapping[str, int]
) -> None:
    """Write the agent's settings file (JSON), refusing a usage history (``refuse_usage``)."""
    refuse_usage(agent, usage)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(dict(settings), indent=2), encoding="utf-8")


def refuse_usage(agent: str, usage: Mapping[str, int]) -> None:
    """An agent that keeps no skill-usage history refuses a seeded one rather than ignoring
    it (the render would assume a history the agent never saw)."""
    if usage:
        raise SkillbenchError(f"{agent} keeps no skill-usage history: drop the usage option")


class FolderAgent:
    """The parts of an agent spec shared by the agents that take each source kind from one
    folder and carry their listing in one block of one request: a subclass (a frozen
    dataclass naming the agent) sets ``folders`` and says where the block is (``block``)."""

    name: str
    folders: ClassVar[Folders]

    def block(self, body: JsonObject) -> str | None:
        """The listing block of a request body, tags included, or None."""
        raise NotImplementedError

    def lay_out(self, sources: Sequence[SourceSpec], workspace: Workspace) -> list[str]:
        copy_sources(self.name, self.folders, sources, workspace)
        return []

    def main_request(self, requests: Sequence[Recorded]) -> Recorded:
        return carrying(self.name, requests, self.block)

    def listing(self, body: JsonObject) -> str:
        return listing_of(self.name, body, self.block)

    def tools(self, body: JsonObject) -> list[JsonObject]:
        return objects(body.get("tools"))

    def installed(self, workspace: Workspace) -> list[SourceSpec]:
        return installed_sources(workspace, self.folders)
