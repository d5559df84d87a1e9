"""Loading labelled requests from JSONL, CSV or YAML, and checking labels against a catalog.

Fields: ``id``, ``text``, ``expected`` (a name, null/empty for "nothing should trigger", or a
list of acceptable names), optional ``at`` (ISO-8601; naive times are UTC), ``session``,
``turn``, ``tags``, ``args``. Any other field is kept in ``LabelledRequest.extra`` (e.g.
``topic``, used by the timeline generator). In CSV, ``expected`` and ``tags`` hold several
values separated by ``|`` and an empty cell is null.

Files are read through ``skillbench._io`` (regular files only, bounded, UTF-8 with a BOM or
UTF-16 accepted with a note, anything else refused with line and byte offset) and YAML
through ``skillbench._yaml`` (alias and depth limits). Every problem names the file and line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from skillbench._errors import InputError, Location, suggest
from skillbench._io import iter_lines, loads_json, read_text
from skillbench._yaml import LineDict, as_json, load_yaml
from skillbench.dataset._request import LabelledRequest
from skillbench.types import JsonObject

KNOWN_FIELDS = ("id", "text", "expected", "at", "session", "turn", "tags", "args")
FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".yaml": "yaml", ".yml": "yaml"}


class InputErrors(InputError):
    """Several input problems at once; ``problems`` holds each, the message lists them all."""

    def __init__(self, problems: Sequence[InputError]) -> None:
        self.problems = tuple(problems)
        first = self.problems[0]
        if len(self.problems) == 1:
            super().__init__(first.location, first.reason)
            return
        listed = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(first.location, f"{len(self.problems)} problems:\n{listed}")
        self.args = (f"{len(self.problems)} problems in {first.location.file}:\n{listed}",)


def load_requests(path: str | Path) -> list[LabelledRequest]:
    """Every request in ``path`` (format by extension), validated.

    Raises:
        InputErrors: listing every bad field of every line (file, line, field, reason).
    """
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputError(
            Location(str(path)),
            f"unknown requests format {path.suffix!r}; use .jsonl, .csv or .yaml",
        )
    if not path.exists() and not path.is_symlink():
        raise InputError(Location(str(path)), "requests file not found")
    records = {"jsonl": _jsonl_records, "csv": _csv_records, "yaml": _yaml_records}[fmt](path)
    problems: list[InputError] = []
    requests: list[LabelledRequest] = []
    seen: dict[str, int | None] = {}
    for line, record in records:
        if isinstance(record, InputError):
            problems.append(record)
            continue
        request, errors = _parse(record, Location(str(path), line), csv_lists=fmt == "csv")
        problems.extend(errors)
        if request is None:
            continue
        if request.id in seen:
            where = Location(str(path), line, "id")
            problems.append(
                InputError(where, f"duplicate id {request.id!r} (first at line {seen[request.id]})")
            )
            continue
        seen[request.id] = line
        requests.append(request)
    if problems:
        raise InputErrors(problems)
    if not requests:
        raise InputError(Location(str(path)), "no requests in file")
    return requests


def _jsonl_records(path: Path) -> Iterator[tuple[int, Any]]:
    for number, line, error in iter_lines(path):
        if error is not None:
            yield number, error
        elif line is not None and line.strip():
            try:
                yield number, loads_json(line, str(path), line=number)
            except InputError as exc:
                yield number, exc


def _csv_records(path: Path) -> Iterator[tuple[int, Any]]:
    """Rows as dicts, each with the line it starts on (a quoted cell may span lines).

    ``strict`` makes the csv module raise on an unclosed quote instead of swallowing the
    rest of the file into one cell; the error names the line where that row started.
    """
    name = str(path)
    reader = csv.reader(io.StringIO(read_text(path).text, newline=""), strict=True)
    header: list[str] | None = None
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            reason = f"malformed CSV in the row starting here: {exc}"
            if "unexpected end of data" in str(exc):
                reason = (
                    "unclosed quote: the row starting here runs to the end of the file "
                    f"(line {reader.line_num})"
                )
            yield start, InputError(Location(name, start), reason)
            return
        if not row:
            continue
        if header is None:
            header = [cell.strip() for cell in row]
            repeated = sorted({c for c in header if header.count(c) > 1 and c})
            if repeated:
                reason = f"header repeats column(s) {', '.join(map(repr, repeated))}"
                yield start, InputError(Location(name, start), reason)
                return
            continue
        if len(row) > len(header):
            reason = (
                f"{len(row) - len(header)} more cell(s) than the header's {len(header)} "
                "columns; quote fields that contain commas"
            )
            yield start, InputError(Location(name, start), reason)
            continue
        yield start, dict(zip(header, row + [""] * (len(header) - len(row)), strict=True))


def _yaml_records(path: Path) -> Iterator[tuple[int | None, Any]]:
    data = load_yaml(path)
    if isinstance(data, Mapping) and "requests" in data:
        data = data["requests"]
    if not isinstance(data, list):
        yield (
            None,
            InputError(Location(str(path)), "expected a list of requests (or a 'requests:' list)"),
        )
        return
    for item in data:
        yield (item.line if isinstance(item, LineDict) else None), item


def _parse(
    record: Any, where: Location, *, csv_lists: bool
) -> tuple[LabelledRequest | None, list[InputError]]:
    if not isinstance(record, Mapping):
        return None, [InputError(where, "a request must be an object")]
    errors: list[InputError] = []

    def bad(field: str, reason: str) -> None:
        errors.append(InputError(Location(where.file, where.line, field), reason))

    rid = record.get("id")
    if isinstance(rid, int | str) and not isinstance(rid, bool) and str(rid).strip():
        rid = str(rid).strip()
    else:
        bad("id", "required: a non-empty string")
    text = record.get("text")
    if not isinstance(text, str) or not text.strip():
        bad("text", "required: a non-empty string")
    expected = _names(record.get("expected"), csv_lists, "expected", bad)
    tags = _names(record.get("tags"), csv_lists, "tags", bad)
    at = _time(record.get("at"), bad)
    session = _optional_str(record.get("session"), "session", bad)
    turn = _turn(record.get("turn"), bad)
    args = _optional_str(record.get("args"), "args", bad)
    extra: JsonObject = {}
    for key, value in record.items():
        if key not in KNOWN_FIELDS and value not in (None, ""):
            try:
                extra[str(key)] = as_json(value)
            except ValueError as exc:
                bad(str(key), str(exc))
    if errors:
        return None, errors
    request = LabelledRequest(
        id=str(rid),
        text=str(text),
        expected=expected,
        at=at,
        session=session,
        turn=turn,
        tags=tags,
        args=args,
        source=f"{where.file}:{where.line}" if where.line else where.file,
        extra=extra,
    )
    return request, []


def _names(value: Any, csv_lists: bool, field: str, bad: Any) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        parts = value.split("|") if csv_lists else [value]
        return tuple(p.strip() for p in parts if p.strip())
    if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
        return tuple(dict.fromkeys(v.strip() for v in value))
    bad(field, "must be a name, null, or a list of non-empty names")
    return ()


def _time(value: Any, bad: Any) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            bad("at", f"not an ISO-8601 time: {value!r}")
            return None
    else:
        bad("at", "must be an ISO-8601 time string")
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _optional_str(value: Any, field: str, bad: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, str | int) and not isinstance(value, bool):
        return str(value)
    bad(field, "must be a string")
    return None


def _turn(value: Any, bad: Any) -> int | None:
    if value is None or value == "":
        return None
    try:
        turn = int(value)
    except (TypeError, ValueError):
        turn = -1
    if isinstance(value, bool) or turn < 0 or (isinstance(value, float) and not value.is_integer()):
        bad("turn", "must be a non-negative integer")
        return None
    return turn


class _HasSkills(Protocol):
    @property
    def skills(self) -> Sequence[Any]: ...


def check_expected(
    requests: Iterable[LabelledRequest], catalog: _HasSkills | Iterable[str], *, label: str = ""
) -> None:
    """Fail when a request expects a skill the catalog does not hold (not a silent miss).

    Args:
        requests: the requests to check.
        catalog: a ``Catalog`` (anything with ``.skills``) or skill names.
        label: the catalog's name, for the message.

    Raises:
        InputErrors: one entry per unknown name, each with the nearest catalog name.
    """
    names = (
        {s.name for s in catalog.skills} if hasattr(catalog, "skills") else set(catalog)  # type: ignore[union-attr]
    )
    problems = []
    for request in requests:
        for name in request.expected:
            if name not in names:
                file, _, line = request.source.rpartition(":")
                where = (
                    Location(file, int(line), "expected")
                    if line.isdigit()
                    else Location(request.source or request.id, None, "expected")
                )
                in_catalog = f" {label!r}" if label else ""
                problems.append(
                    InputError(
                        where,
                        f"request {request.id!r} expects {name!r}, not in catalog{in_catalog}"
                        f"{suggest(name, names)}",
                    )
                )
    if problems:
        raise InputErrors(problems)
