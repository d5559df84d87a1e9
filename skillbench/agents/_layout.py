"""What agents that read one skills folder per scope share: where each source kind goes,
what a capture installed, and the tagged listing block of their request."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.agents._recorder import Recorded
from skillbench.agents._spec import Workspace, copy_skills
from skillbench.catalog import SourceKind, SourceSpec
from skillbench.types import JsonObject

Folders = Mapping[SourceKind, tuple[str, str]]
"""Source kind → (``home`` or ``project``, the folder under it)."""


def folders_in(workspace: Workspace, folders: Folders) -> dict[SourceKind, Path]:
    """Each source kind's folder in ``workspace``."""
    return {
        kind: (workspace.project if base == "project" else workspace.home) / relative
        for kind, (base, relative) in folders.items()
    }


def copy_into(
    agent: str, folders: Folders, sources: Sequence[SourceSpec], workspace: Workspace
) -> None:
    """Copy each source's skill folders into its kind's folder; a kind the agent has no
    folder for is an error naming the kinds it has."""
    targets = folders_in(workspace, folders)
    for source in sources:
        if source.kind not in targets:
            raise SkillbenchError(
                f"{source.kind}={source.path}: {agent} has no folder for {source.kind} skills "
                f"that a capture can fill ({' and '.join(targets)} only)"
            )
        copy_skills(source, targets[source.kind])


def installed_in(workspace: Workspace, folders: Folders) -> list[SourceSpec]:
    """The folders a capture filled, as sources."""
    found = folders_in(workspace, folders).items()
    return [SourceSpec(str(path), kind) for kind, path in found if path.is_dir()]


def block_between(texts: Iterable[str], open_tag: str, close_tag: str) -> str | None:
    """The first ``open_tag`` … ``close_tag`` block of ``texts``, tags included."""
    for text in texts:
        start = text.find(open_tag)
        end = text.find(close_tag, start)
        if start >= 0 and end >= 0:
            return text[start : end + len(close_tag)]
    return None


def carrying(
    agent: str, requests: Sequence[Recorded], block: Callable[[JsonObject], str | None]
) -> Recorded:
    """The first request whose body holds a listing block."""
    for recorded in requests:
        if block(recorded.body) is not None:
            return recorded
    raise SkillbenchError(f"{agent} sent no request carrying a skill listing")
