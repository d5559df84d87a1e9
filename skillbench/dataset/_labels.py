"""Label overrides: a person's corrections to the ``expected`` field of some requests.

Imported and synthesised labels are silver; the viewer lets a person correct a decision's
label and exports the corrections as a JSONL file, one object per line::

    {"id": "dt-0732", "expected": ["incident-postmortem"]}
    {"id": "dt-0911", "expected": []}

``id`` names a request of the run's requests file and ``expected`` replaces its label (a
list of acceptable skills; empty: no skill should be invoked). Any other field (the viewer
writes ``was``, the label it replaced) is ignored. ``run --labels`` and ``report --labels``
read the same file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from skillbench._errors import InputError, Location
from skillbench.dataset._load import InputErrors, _jsonl_records, _names
from skillbench.dataset._request import LabelledRequest

LabelOverrides = Mapping[str, tuple[str, ...]]
"""Request id → the expected skills that replace its label."""


def load_labels(path: str | Path) -> LabelOverrides:
    """The overrides in the JSONL file ``path``.

    Raises:
        InputErrors: every bad line (file, line, field, reason).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(Location(str(path)), "labels file not found")
    problems: list[InputError] = []
    out: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    for line, record in _jsonl_records(path):
        if isinstance(record, InputError):
            problems.append(record)
            continue
        where = Location(str(path), line)
        if not isinstance(record, dict):
            problems.append(InputError(where, "a label override must be an object"))
            continue
        rid = record.get("id")
        if not isinstance(rid, str) or not rid:
            problems.append(
                InputError(Location(where.file, line, "id"), "a request id is required")
            )
            continue
        if "expected" not in record:
            reason = "required: the skills to expect ([] for none)"
            problems.append(InputError(Location(where.file, line, "expected"), reason))
            continue
        bad: list[InputError] = []
        expected = _names(record["expected"], False, "expected", _collect(bad, where))
        if bad:
            problems.extend(bad)
            continue
        if rid in lines:
            reason = f"request {rid!r} is relabelled twice (first at line {lines[rid]})"
            problems.append(InputError(Location(where.file, line, "id"), reason))
            continue
        lines[rid] = line
        out[rid] = expected
    if problems:
        raise InputErrors(problems)
    return out


def _collect(bad: list[InputError], where: Location) -> Callable[[str, str], None]:
    """A ``bad(field, reason)`` callback adding an error at ``where``'s line to ``bad``."""

    def add(field: str, reason: str) -> None:
        bad.append(InputError(Location(where.file, where.line, field), reason))

    return add


def apply_labels(
    requests: Sequence[LabelledRequest], labels: LabelOverrides, source: str | Path
) -> list[LabelledRequest]:
    """``requests`` with the overridden labels; an id no request has is an error."""
    known = {r.id for r in requests}
    unknown = [rid for rid in labels if rid not in known]
    if unknown:
        listed = ", ".join(map(repr, unknown[:5])) + (" …" if len(unknown) > 5 else "")
        raise InputError(
            Location(str(source), None, "id"),
            f"{len(unknown)} relabelled request(s) are not in the requests file: {listed}",
        )
    return [
        dataclasses.replace(r, expected=labels[r.id]) if r.id in labels else r for r in requests
    ]
