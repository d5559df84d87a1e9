"""Skill folders written from text, rendered offline with an agent's profile: the fast half
of a fidelity test (the expected listing is written by hand from a capture of the agent)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from skillbench.agentspec import AGENT_SPECS
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.listing import render_listing


def write_skills(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """``root/FOLDER/SKILL.md`` for each folder path and its file (text or raw bytes)."""
    for folder, content in files.items():
        path = root / folder / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def render_skills(agent: str, root: Path, kind: str = "user") -> str:
    """The listing ``agent``'s profile renders for the skills under ``root`` (a source of
    ``kind``), without the agent's built-in skills."""
    spec = AGENT_SPECS.get(agent)
    sources = [SourceSpec(str(root), kind)]  # type: ignore[arg-type]
    catalog = load_catalog(sources, profile=agent)
    listing = render_listing(
        catalog.skills,
        profile=agent,
        ordering=spec.ordering,
        inactive=catalog.inactive,
        options={"snapshot": "none"},
    )
    return listing.text
