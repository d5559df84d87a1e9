"""JSON objects of a log file, with a diagnostic for every line that is not one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from skillbench._errors import InputError
from skillbench._io import loads_json
from skillbench.transcripts._reader import read_lines
from skillbench.transcripts._types import LogProblem


def json_objects(path: Path) -> Iterator[tuple[int, dict[str, Any]] | LogProblem]:
    """``(line number, object)`` for each JSON object line of ``path``, else a diagnostic.

    Blank lines are skipped silently; a file that cannot be opened is one diagnostic.
    """
    name = str(path)
    try:
        lines = read_lines(path)
        for line in lines:
            if line.text is None:
                yield LogProblem(
                    name, line.number, "skipped", line.error.reason if line.error else "unreadable"
                )
                continue
            if not line.text.strip():
                continue
            try:
                value = loads_json(line.text, name, line=line.number, bounded=False)
            except InputError as exc:
                yield LogProblem(name, line.number, "skipped", exc.reason)
                continue
            if not isinstance(value, dict):
                yield LogProblem(name, line.number, "skipped", "a log line must be a JSON object")
                continue
            yield line.number, value
    except InputError as exc:
        yield LogProblem(name, 0, "skipped", exc.reason)
    except OSError as exc:
        yield LogProblem(name, 0, "skipped", f"cannot read: {exc.strerror or exc}")


class FirstSeen:
    """Remembers what was already reported, so a note appears once per file and key."""

    def __init__(self) -> None:
        self._seen: set[tuple[str, ...]] = set()

    def first(self, *key: str) -> bool:
        if key in self._seen:
            return False
        self._seen.add(key)
        return True
