"""The Skill record: every frontmatter field an agent acts on, normalised once at load time."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from skillbench.types import JsonObject

SourceKind = Literal["bundled", "user", "project", "plugin", "extra", "managed"]
"""Where a skill came from; decides precedence, ordering priority and privileges."""

SOURCE_KINDS: tuple[SourceKind, ...] = ("bundled", "user", "project", "plugin", "extra", "managed")

ExecutionContext = Literal["inline", "fork"]
"""How a triggered skill runs; anything but ``fork`` normalises to ``inline``."""


def normalize_context(value: object) -> ExecutionContext:
    """Only an explicit ``fork`` forks, as the reference pipeline normalises ``context``."""
    return "fork" if isinstance(value, str) and value.strip().lower() == "fork" else "inline"


def normalize_name(name: str) -> str:
    """The key used for dedupe and lookups: case-folded, ``_`` and spaces as ``-``."""
    return "-".join(name.strip().lower().replace("_", " ").split())


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill as an agent's catalog holds it.

    Fields mirror the codebot / Claude Code frontmatter plus the agent-skills
    ``skill.json`` fields, which stay ``None``/empty when absent.
    ``parameters`` is excluded from hashing because JSON Schema is a nested mapping.
    ``listed`` holds a text field as the agent's own reader returned it where that differs
    from the sanitised field (line breaks and edge spaces kept): what an agent that lists
    front matter raw shows.
    ``rel_path`` is where ``path`` lies below the agent's skills folder once the source is
    installed (``/`` separated; every outermost skill folder by its own name), so listings
    show where the skill would live on a user's machine, not in this checkout; ``root`` is the
    source folder it was found in.
    """

    name: str
    description: str
    when_to_use: str | None = None
    argument_hint: str | None = None
    arguments: tuple[str, ...] = ()
    context: ExecutionContext = "inline"
    agent: str | None = None
    model: str | None = None
    effort: str | None = None
    allowed_tools: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    user_invocable: bool = True
    disable_model_invocation: bool = False
    source: SourceKind = "project"
    path: str | None = None
    rel_path: str | None = None
    root: str | None = None
    body: str = ""
    aliases: tuple[str, ...] = ()
    version: str | None = None
    tags: tuple[str, ...] = ()
    trigger_keywords: tuple[str, ...] = ()
    priority: int | None = None
    side_effects: tuple[str, ...] = ()
    permission: str | None = None
    parameters: JsonObject | None = field(default=None, hash=False, compare=False)
    listed: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)
    dependencies: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """Normalised name used for dedupe and lookups."""
        return normalize_name(self.name)

    @property
    def model_invocable(self) -> bool:
        return not self.disable_model_invocation
