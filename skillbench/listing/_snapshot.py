"""A snapshot of one shipped agent: the parts of its prompt that are its vendor's text.

skillbench never ships an agent's built-in skills, system prompt or tool descriptions. They
are read from the installed agent by ``skillbench capture`` and kept in the user's cache,
keyed by agent and version; a profile renders with them when a snapshot is present and says
so when it is not.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench.cache import default_cache_root
from skillbench.types import JsonObject

SNAPSHOTS_DIR = "agents"
SNAPSHOT_FILE = "snapshot.json"
SNAPSHOT_SCHEMA = 1

SnapshotChoice = Literal["auto", "none"]
"""``auto``: the cached snapshot of the profile's verified agent version, if any; ``none``:
render without the agent's own text. Any other value is a path to a ``snapshot.json``."""


@dataclass(frozen=True)
class BuiltinSkill:
    """A skill the agent itself ships, as its listing shows it.

    Attributes:
        name: the name the listing shows.
        description: the listing text after ``name: `` when nothing is trimmed (for an
            agent that joins ``when_to_use`` to the description, already joined as it does).
        when_to_use: kept apart only where the agent keeps it apart.
        path: where the agent keeps the skill, relative to its own skills root (system
            skills the agent writes itself), else None.
        alias: the skill's own name where the listing shows it beside ``name`` (its
            folder's or file's), else None.
    """

    name: str
    description: str
    when_to_use: str | None = None
    path: str | None = None
    alias: str | None = None


@dataclass(frozen=True)
class AgentSnapshot:
    """What one agent version sends besides the user's skills.

    Attributes:
        agent: profile name (``my-agent``).
        version: the agent's own version string (``2.1.328``).
        builtin_skills: the agent's own skills, in the agent's order.
        texts: named pieces of the agent's framing read from a capture (for example
            ``system_prompt`` or the listing's header), each exactly as sent.
        tools: the tool definitions as sent, in order.
        model: the model the capture asked for.
        context_window: that model's context window in tokens, when the agent reports it.
    """

    agent: str
    version: str
    builtin_skills: tuple[BuiltinSkill, ...] = ()
    texts: Mapping[str, str] = field(default_factory=dict)
    tools: tuple[JsonObject, ...] = ()
    model: str | None = None
    context_window: int | None = None

    def to_json(self) -> str:
        data = asdict(self)
        data["schema"] = SNAPSHOT_SCHEMA
        return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, origin: str) -> AgentSnapshot:
        """Parse ``text`` read from ``origin``; a malformed snapshot names the file."""
        try:
            data = json.loads(text)
            if data.get("schema") != SNAPSHOT_SCHEMA:
                raise ValueError(f"schema {data.get('schema')!r}, expected {SNAPSHOT_SCHEMA}")
            skills = tuple(BuiltinSkill(**s) for s in data.get("builtin_skills", ()))
            return cls(
                agent=str(data["agent"]),
                version=str(data["version"]),
                builtin_skills=skills,
                texts={str(k): str(v) for k, v in data.get("texts", {}).items()},
                tools=tuple(data.get("tools", ())),
                model=data.get("model"),
                context_window=data.get("context_window"),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise InputError(Location(origin), f"not an agent snapshot: {exc}") from None


def snapshot_path(agent: str, version: str, root: Path | None = None) -> Path:
    """Where the snapshot of ``agent`` ``version`` lives in the cache."""
    base = root if root is not None else default_cache_root()
    return base / SNAPSHOTS_DIR / agent / version / SNAPSHOT_FILE


def cached_versions(agent: str, root: Path | None = None) -> list[str]:
    """The versions of ``agent`` with a snapshot in the cache, sorted."""
    folder = snapshot_path(agent, "-", root).parent.parent
    if not folder.is_dir():
        return []
    return sorted(p.parent.name for p in folder.glob(f"*/{SNAPSHOT_FILE}"))


def save_snapshot(snapshot: AgentSnapshot, root: Path | None = None) -> Path:
    """Write ``snapshot`` into the cache (atomically) and return its path."""
    path = snapshot_path(snapshot.agent, snapshot.version, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(snapshot.to_json(), encoding="utf-8")
    tmp.replace(path)
    return path


def read_snapshot(path: Path) -> AgentSnapshot:
    """The snapshot stored at ``path``, parsed once per version of the file: every listing
    plan, the run's notes and each ``prompt: agent`` decision ask for it."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise SkillbenchError(f"{path}: cannot read agent snapshot: {exc.strerror}") from None
    return _parsed(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _parsed(path: str, mtime_ns: int, size: int) -> AgentSnapshot:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SkillbenchError(f"{path}: cannot read agent snapshot: {exc.strerror}") from None
    return AgentSnapshot.from_json(text, path)


def resolve_snapshot(
    choice: str | None, agent: str, version: str, root: Path | None = None
) -> AgentSnapshot | None:
    """The snapshot a profile renders with: ``auto`` (cached, if any), ``none``, or a path.

    A path that names another agent is an error: its text would go into the wrong listing.
    """
    if choice in (None, "none"):
        return None
    if choice == "auto":
        path = snapshot_path(agent, version, root)
        return read_snapshot(path) if path.is_file() else None
    snapshot = read_snapshot(Path(choice).expanduser())
    if snapshot.agent != agent:
        raise SkillbenchError(f"{choice}: a snapshot of {snapshot.agent!r}, not of {agent!r}")
    return snapshot
