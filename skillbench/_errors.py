"""Errors that reach users: each says where (file, line, field) and why."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")


class SkillbenchError(Exception):
    """An error meant for the user; the CLI prints it without a traceback and exits 1."""


@dataclass(frozen=True)
class Location:
    """Where in an input a problem sits; every part is optional but file."""

    file: str
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return where if self.field is None else f"{where}: field {self.field!r}"


class InputError(SkillbenchError):
    """Bad user input (config, requests, usage file) at a known location."""

    def __init__(self, location: Location, reason: str) -> None:
        self.location = location
        self.reason = reason
        super().__init__(f"{location}: {reason}")


def suggest(name: str, candidates: Iterable[str]) -> str:
    """A ``" (did you mean 'x'?)"`` suffix naming the closest candidate, or an empty string."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def validated(model: type[M], data: object, path: str, line: int | None = None) -> M:
    """``data`` read into ``model``, or an :class:`InputError` naming the file, the line and
    the first bad field (and how many more there are); pydantic is imported here only, so
    commands that read no record (``--help``) never load it."""
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise InputError(Location(path, line, field), err["msg"] + more) from None
