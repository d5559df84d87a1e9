"""The Skill record: every frontmatter field an agent acts on, normalised once at load time."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from skillbench._errors import InputError, Location
from skillbench._io import MiB, read_text
from skillbench.types import JsonObject

MAX_SKILL_BYTES = 8 * MiB
"""Largest skill file read; real SKILL.md files are under 100 KB."""

INLINE_BODY_CHARS = 65_536
"""Bodies up to this many characters stay in the loaded ``Skill``; a longer one stays in its
file (``BodyFile``) and is read back, one at a time, by what needs the text (a lint rule, an
invocation's cost), so a catalog of huge skills costs the memory of its metadata."""

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


def body_digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class BodyFile:
    """A body left in its file, with what the loader derived from it while it had the text.

    Attributes:
        path: the file holding the body (the SKILL.md, or the README.md of a skill.json).
        start: where the body starts in the file's decoded text, in characters.
        chars: the body's length in characters.
        line: the file's 1-based line where the body starts.
        sha256: digest of the body's UTF-8 bytes; reading the body back checks it.
        paragraph: the body's first paragraph as the description fallback reads it
            (``catalog.loaded_fallback_description``), at most 200 characters.
    """

    path: str
    start: int
    chars: int
    line: int
    sha256: str
    paragraph: str

    def read(self) -> str:
        """The body's text, read from the file again.

        Raises:
            InputError: the file is gone, unreadable or no longer holds the body it held
                when the catalog was loaded.
        """
        text, _ = read_text(self.path, limit=MAX_SKILL_BYTES, log_note=False)
        body = text[self.start : self.start + self.chars]
        if len(body) != self.chars or body_digest(body) != self.sha256:
            raise InputError(
                Location(self.path, self.line),
                "the skill's body changed since the catalog was loaded; load it again",
            )
        return body


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill as an agent's catalog holds it.

    Fields mirror the SKILL.md frontmatter the agents read plus the agent-skills
    ``skill.json`` fields, which stay ``None``/empty when absent.
    ``parameters`` is excluded from hashing because JSON Schema is a nested mapping.
    ``rel_path`` is where ``path`` lies below the agent's skills folder once the source is
    installed (``/`` separated; every outermost skill folder by its own name), so listings
    show where the skill would live on a user's machine, not in this checkout; ``root`` is the
    source folder it was found in.
    ``body`` is the text after the frontmatter, or for a loaded body longer than
    ``INLINE_BODY_CHARS`` where it lies (``BodyFile``): ``read_body()`` gives the text either way.
    ``listed`` holds a text field as the agent's own reader returned it where that differs
    from the sanitised field (line breaks and edge spaces kept): what an agent that lists
    front matter raw shows.
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
    body: str | BodyFile = ""
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

    def with_description(self, text: str) -> Skill:
        """The same skill described by ``text`` (a trim or a rewrite): the agent's raw reading
        of the old description no longer applies."""
        listed = {k: v for k, v in self.listed.items() if k != "description"}
        return replace(self, description=text, listed=listed)

    @property
    def model_invocable(self) -> bool:
        return not self.disable_model_invocation

    @property
    def body_chars(self) -> int:
        """The body's length in characters, without reading it."""
        return len(self.body) if isinstance(self.body, str) else self.body.chars

    def read_body(self) -> str:
        """The body's text (read back from its file when the catalog left it there).

        Raises:
            InputError: a ``BodyFile`` whose file changed since the catalog was loaded.
        """
        return self.body if isinstance(self.body, str) else self.body.read()
