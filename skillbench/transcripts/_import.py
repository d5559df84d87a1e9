"""Importing logs: finding the files, parsing each, writing requests, usage and listings."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from skillbench._errors import InputError, SkillbenchError
from skillbench._io import file_size
from skillbench.agentspec import AGENT_SPECS, SessionLogs
from skillbench.transcripts._class_report import CLASSES_CSV, CLASSES_MD
from skillbench.transcripts._classify import SessionListings, SkillClass
from skillbench.transcripts._formats import DEFAULT_OPTIONS, LOG_PARSERS, ImportOptions
from skillbench.transcripts._import_dir import (
    check_output,
    finish_swap,
    outside,
    replaced_whole,
)
from skillbench.transcripts._redact import Redactor
from skillbench.transcripts._types import (
    ImportedRequest,
    ImportSummary,
    Item,
    LogProblem,
    OutsideCall,
    RecordedListing,
    SkillUse,
)

REQUESTS_FILE = "requests.jsonl"
USAGE_FILE = "usage.json"
LISTINGS_FILE = "listings.jsonl"
DIAGNOSTICS_FILE = "diagnostics.txt"
OUTPUT_FILES = (
    REQUESTS_FILE,
    USAGE_FILE,
    LISTINGS_FILE,
    DIAGNOSTICS_FILE,
    CLASSES_MD,
    CLASSES_CSV,
)
"""What an import folder may hold: what the import writes and what ``report`` adds."""


def session_logs(agent: str) -> SessionLogs:
    """Where ``agent`` keeps its session logs; an agent with none cannot be imported."""
    logs = AGENT_SPECS.get(agent).logs
    if logs is None:
        raise SkillbenchError(f"{agent} keeps no session logs skillbench can import")
    return logs


def find_logs(agent: str, paths: Iterable[str | Path]) -> Iterator[Path]:
    """Each log file under ``paths`` (directories walked, sorted); files are taken as given.

    A walk also yields what merely has a log's name (a FIFO, a link to a device): the import
    notes each and reads the real logs beside it; named on the command line, it is an error.
    """
    suffixes = session_logs(agent).suffixes
    for given in paths:
        path = Path(given).expanduser()
        if path.is_dir():
            found = (p for p in path.rglob("*") if p.name.endswith(suffixes) and not p.is_dir())
            yield from sorted(found, key=str)
        else:
            yield path


def parse_logs(
    agent: str, files: Iterable[Path], options: ImportOptions = DEFAULT_OPTIONS
) -> Iterator[Item]:
    """Everything the logs hold, file after file, each in file order (streamed)."""
    parse = LOG_PARSERS.get(agent)
    redact = Redactor(options.keep_paths)
    counts: dict[str, int] = {}
    for path in files:
        if not os.path.lexists(path):
            yield LogProblem(str(path), 0, "skipped", "no such file")
        else:
            yield from parse(path, redact, options, counts)


def import_logs(
    agent: str,
    paths: Iterable[str | Path],
    out_dir: str | Path,
    options: ImportOptions = DEFAULT_OPTIONS,
    on_diagnostic: Callable[[LogProblem], None] = lambda d: None,
) -> ImportSummary:
    """Write ``requests.jsonl``, ``usage.json``, ``diagnostics.txt`` and, for an agent whose
    logs record its listings (``SessionLogs.keeps_listings``), ``listings.jsonl``.

    Requests are written as they are parsed, so memory does not grow with the logs; the
    usage history holds one time per invocation. The folder is replaced whole once every
    file is written (a crash leaves the previous import intact); a log folder may hold the
    output folder, which is then not read.

    Args:
        agent: whose logs these are (an agent whose record has ``logs``).
        paths: log files or directories of them.
        out_dir: created if missing; must hold nothing but an earlier import.
        options: privacy and catalog options.
        on_diagnostic: called with each diagnostic as it is found.

    Raises:
        OutputError: ``out_dir`` is a file, holds an input or other files, or cannot be
            written.
    """
    given = [Path(p).expanduser() for p in paths]
    finish_swap(Path(out_dir).expanduser())
    out = check_output(Path(out_dir), given, OUTPUT_FILES)
    files = list(outside(find_logs(agent, given), out))
    notes = [n for f in files if f not in given and (n := _special(f)) is not None]
    files = [f for f in files if str(f) not in {n.file for n in notes}]
    for note in notes:
        on_diagnostic(note)
    if not files:
        return ImportSummary(diagnostics=notes)
    with replaced_whole(out) as staging:
        summary = _write(agent, files, staging, options, on_diagnostic, notes)
    return summary


def _special(path: Path) -> LogProblem | None:
    """A note for a walked ``path`` that is no regular file (a FIFO, a device, a link to one
    or a link loop), asked without opening it, so a FIFO never blocks; None for a file."""
    try:
        file_size(path)
    except InputError as exc:
        return LogProblem(str(path), 0, "note", exc.reason)
    return None


def _write(
    agent: str,
    files: list[Path],
    out: Path,
    options: ImportOptions,
    on_diagnostic: Callable[[LogProblem], None],
    notes: Sequence[LogProblem] = (),
) -> ImportSummary:
    redact = Redactor(options.keep_paths)
    summary = ImportSummary(files=len(files), diagnostics=list(notes))
    uses: dict[str, list[str]] = {}
    shown = SessionListings(options.skills)
    labels = options.labels or {}
    with ExitStack() as stack:
        requests = stack.enter_context((out / REQUESTS_FILE).open("w", encoding="utf-8"))
        listings = (
            stack.enter_context((out / LISTINGS_FILE).open("w", encoding="utf-8"))
            if session_logs(agent).keeps_listings
            else None
        )
        for item in parse_logs(agent, files, options):
            if isinstance(item, ImportedRequest):
                if item.id in labels:
                    item = replace(item, expected=labels[item.id])
                classes = shown.classify(item)
                for one in classes:
                    summary.classes[one.turn_class] = summary.classes.get(one.turn_class, 0) + 1
                requests.write(_line(request_record(item, redact, classes)))
                summary.requests += 1
            elif isinstance(item, RecordedListing):
                shown.add(item)
                if listings is not None:
                    listings.write(_line(listing_record(item, redact)))
                    summary.listings += 1
            elif isinstance(item, SkillUse):
                uses.setdefault(item.skill, []).append(item.at)
                summary.invocations += 1
            elif isinstance(item, OutsideCall):
                for skill in item.skills:
                    summary.outside[skill] = summary.outside.get(skill, 0) + 1
                summary.left_out += item.dropped
                summary.diagnostics.append(item.diagnostic())
                on_diagnostic(item.diagnostic())
            else:
                summary.diagnostics.append(item)
                on_diagnostic(item)
    usage = {skill: {"events": sorted(times)} for skill, times in sorted(uses.items())}
    (out / USAGE_FILE).write_text(json.dumps(usage, indent=2) + "\n", encoding="utf-8")
    (out / DIAGNOSTICS_FILE).write_text(
        "".join(f"{redact(str(d))}\n" for d in summary.diagnostics), encoding="utf-8"
    )
    return summary


def request_record(
    request: ImportedRequest,
    redact: Callable[[str], str],
    classes: Sequence[SkillClass] = (),
) -> dict[str, Any]:
    """The request as a line of skillbench's requests format (extra fields kept as-is);
    ``classes`` say why each expected skill did or did not fire."""
    record: dict[str, Any] = {
        "id": request.id,
        "text": request.text,
        "expected": list(request.expected) or None,
        "at": request.at,
        "session": request.session,
        "turn": request.turn,
        "label_source": request.label_source,
        "log": redact(request.source),
    }
    if request.args:
        record["args"] = request.args
    if request.tags:
        record["tags"] = list(request.tags)
    if classes:
        record["classes"] = [c.record() for c in classes]
    return record


def listing_record(listing: RecordedListing, redact: Callable[[str], str]) -> dict[str, Any]:
    return {
        "session": listing.session,
        "at": listing.at,
        "initial": listing.initial,
        "names": list(listing.names),
        "content": listing.content,
        "log": redact(listing.source),
    }


def _line(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"
