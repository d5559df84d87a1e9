"""The on-disk response cache: one JSON file per key, written atomically.

One file per key needs no lock: writers race only to ``os.replace`` identical content, readers
see either no file or a whole one, and several processes (parallel runs sharing a cache) are
as safe as several threads. A hit refreshes the file's mtime, so ``prune --older-than``
removes entries *unused* for that long.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from skillbench.cache._key import CACHE_VERSION
from skillbench.types import JsonObject, JsonValue

RESPONSES_DIR = "responses"
"""Model responses live in ``<root>/responses/``."""
EMBEDDINGS_DIR = "embeddings"
"""The embedding selectors' vector cache lives in ``<root>/embeddings/``."""


def default_cache_root() -> Path:
    """``$SKILLBENCH_CACHE_DIR``, else ``.skillbench-cache/`` in the current directory."""
    explicit = os.environ.get("SKILLBENCH_CACHE_DIR")
    return Path(explicit).expanduser() if explicit else Path.cwd() / ".skillbench-cache"


@dataclass(frozen=True, slots=True)
class CacheStats:
    """What a cache directory holds."""

    path: Path
    entries: int
    bytes: int
    oldest: float | None
    newest: float | None


def dir_size(path: Path) -> int:
    """Total bytes of the files under ``path`` (0 when it does not exist)."""
    if not path.is_dir():
        return 0
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


class ResponseCache:
    """Model responses by cache key (``skillbench.cache.cache_key``) under ``root``.

    Entries are JSON objects; callers store only successful responses (errors are never
    cached) with secrets already removed.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.dir = self.root / RESPONSES_DIR

    def _path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str) -> JsonObject | None:
        """The entry for ``key``, or None (missing, unreadable or from another cache version)."""
        path = self._path(key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("v") != CACHE_VERSION:
            return None
        with contextlib.suppress(OSError):
            os.utime(path)
        return entry

    def __contains__(self, key: str) -> bool:
        return self._path(key).is_file()

    def put(self, key: str, entry: Mapping[str, JsonValue]) -> None:
        """Store ``entry`` atomically (temp file in the same directory, then rename)."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps({**entry, "v": CACHE_VERSION}, ensure_ascii=False)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _files(self) -> Iterator[Path]:
        if self.dir.is_dir():
            yield from (p for p in self.dir.glob("*/*.json") if not p.name.startswith(".tmp-"))

    def stats(self) -> CacheStats:
        files = [(p.stat().st_size, p.stat().st_mtime) for p in self._files()]
        return CacheStats(
            self.dir,
            len(files),
            sum(s for s, _ in files),
            min((m for _, m in files), default=None),
            max((m for _, m in files), default=None),
        )

    def clear(self) -> int:
        """Remove every entry; returns how many."""
        return self._remove(lambda _: True)

    def prune(self, older_than: timedelta) -> int:
        """Remove entries unused for longer than ``older_than``; returns how many."""
        cutoff = time.time() - older_than.total_seconds()
        return self._remove(lambda p: p.stat().st_mtime < cutoff)

    def _remove(self, doomed: Callable[[Path], bool]) -> int:
        removed = 0
        for path in list(self._files()):
            try:
                if doomed(path):
                    path.unlink()
                    removed += 1
            except FileNotFoundError:
                continue
        for sub in self.dir.glob("*") if self.dir.is_dir() else ():
            if sub.is_dir() and not any(sub.iterdir()):
                sub.rmdir()
        return removed
