"""Session-log readers: how each agent's logs are read.

An agent whose logs skillbench imports says where they are in its record (``AgentSpec.logs``)
and registers their reader in ``LOG_PARSERS`` from the module that reads them (named after
it); the importer looks both up by the agent's name and knows nothing else of it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from skillbench._registry import Registry
from skillbench.catalog import Skill
from skillbench.transcripts._types import Item


@dataclass(frozen=True, slots=True)
class ImportOptions:
    """How to import.

    Attributes:
        keep_paths: keep home-directory paths (secrets and e-mail addresses still go).
        known: skill names of a catalog; when given, only they become labels.
        by_dir: skill directory name → skill name (for a format that tells a skill's use by
            the files it touches), from the catalog.
        skills: the catalog's skills, which tell why a listing left one out and what a
            description shown in full reads.
        labels: request id → the skills a person says the turn expected, replacing
            what was invoked as its label (the turn's classes follow the new label).
    """

    keep_paths: bool = False
    known: Collection[str] | None = None
    by_dir: Mapping[str, str] | None = None
    skills: Sequence[Skill] = ()
    labels: Mapping[str, tuple[str, ...]] | None = None


DEFAULT_OPTIONS = ImportOptions()
"""Everything imported, paths redacted, no catalog."""

LogParser = Callable[[Path, Callable[[str], str], ImportOptions, dict[str, int]], Iterator[Item]]
"""Everything one log file holds, in file order: ``(path, redact, options, counts)``, where
``redact`` is applied to every string that leaves the importer and ``counts`` are the
per-session turn counters shared across the files of one import."""


LOG_PARSERS: Registry[LogParser] = Registry("log parser")
"""Agent name → the reader of its session logs (``AgentSpec.logs`` says where they are)."""
