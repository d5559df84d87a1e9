"""The per-skill table of an import's turn classes: where each skill's expected turns failed.

A skill whose expected turns are mostly ``not_listed`` or ``listed_cut`` needs room in the
listing (or its ``paths``/flag revisited), not a better description; one whose turns are
``listed_not_invoked`` was seen in full and passed over. The skills never listed in full
in any judged turn are named apart: no rewrite of their descriptions can help until the
agent shows them.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from skillbench._errors import InputError, Location
from skillbench._io import iter_lines, loads_json
from skillbench._output import write_atomic
from skillbench.transcripts._classify import TURN_CLASSES

CLASSES_MD = "classes.md"
CLASSES_CSV = "classes.csv"
_REQUESTS = "requests.jsonl"


@dataclass
class SkillClasses:
    """One skill's expected turns: how many fell in each class, how it was listed in them
    and, for the turns it was not listed in, the reasons given."""

    skill: str
    classes: Counter[str] = field(default_factory=Counter)
    listed: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def turns(self) -> int:
        return sum(self.classes.values())

    @property
    def never_in_full(self) -> bool:
        """Judged against a listing at least once, and never shown in full in one."""
        judged = sum(n for shown, n in self.listed.items() if shown != "unknown")
        return judged > 0 and not self.listed["full"]


def is_import(folder: str | Path) -> bool:
    """Whether ``folder`` is an import's output (requests, no run summary)."""
    path = Path(folder)
    return (path / _REQUESTS).is_file() and not (path / "summary.json").exists()


def class_table(folder: str | Path) -> list[SkillClasses]:
    """Each expected skill of the import in ``folder``, by name.

    Raises:
        InputError: a line of its requests file that is not JSON or whose ``classes`` is
            not a list of objects with ``skill`` and ``class`` (file, line, field).
    """
    table: dict[str, SkillClasses] = {}
    for where, one in _classes(Path(folder) / _REQUESTS):
        skill, turn_class = one.get("skill"), one.get("class")
        if not isinstance(skill, str) or turn_class not in TURN_CLASSES:
            raise InputError(where, "each class needs a skill name and a known class")
        row = table.setdefault(skill, SkillClasses(skill))
        row.classes[str(turn_class)] += 1
        row.listed[str(one.get("listed") or "unknown")] += 1
        reason = one.get("reason")
        if isinstance(reason, str):
            row.reasons[reason] += 1
    return [table[name] for name in sorted(table)]


def _classes(path: Path) -> Iterator[tuple[Location, dict[str, object]]]:
    for number, line, error in iter_lines(path):
        if error is not None:
            raise error
        if line is None or not line.strip():
            continue
        record = loads_json(line, str(path), line=number)
        classes = record.get("classes") if isinstance(record, dict) else None
        if classes is None:
            continue
        where = Location(str(path), number, "classes")
        if not isinstance(classes, list) or not all(isinstance(c, dict) for c in classes):
            raise InputError(where, "must be a list of objects")
        for one in classes:
            yield where, one


def write_class_report(
    folder: str | Path, formats: Sequence[str], output: str | Path | None = None
) -> list[Path]:
    """``classes.md`` (``md``) and ``classes.csv`` (``csv``) for the import in ``folder``,
    written into ``output`` (default: ``folder``); other formats are not made for imports."""
    table = class_table(folder)
    out = Path(output or folder)
    written = []
    if "md" in formats:
        write_atomic(out / CLASSES_MD, markdown(table, Path(folder) / _REQUESTS))
        written.append(out / CLASSES_MD)
    if "csv" in formats:
        write_atomic(out / CLASSES_CSV, _csv(table))
        written.append(out / CLASSES_CSV)
    return written


def markdown(table: Sequence[SkillClasses], source: Path) -> str:
    turns = sum(row.turns for row in table)
    lines = [
        "# Why expected skills fired or not",
        "",
        f"{turns} expected skill(s) in the turns of `{_md(str(source))}`, each judged by the "
        "listing its session had recorded by the end of the turn.",
        "",
    ]
    if not table:
        lines.append("No turn expected a skill: relabel turns with `import --labels`.")
        return "\n".join(lines) + "\n"
    lines.append("| skill | turns | " + " | ".join(TURN_CLASSES) + " | not listed because |")
    lines.append("|---|---:|" + "---:|" * len(TURN_CLASSES) + "---|")
    for row in table:
        counts = " | ".join(str(row.classes[c]) for c in TURN_CLASSES)
        lines.append(f"| {_md(row.skill)} | {row.turns} | {counts} | {_reasons(row)} |")
    never = [row for row in table if row.never_in_full]
    lines += ["", "## Never listed in full", ""]
    if not never:
        lines.append("Every skill was listed in full in at least one of its judged turns.")
    for row in never:
        shown = ", ".join(f"{s} {n}" for s, n in sorted(row.listed.items()) if s != "unknown")
        lines.append(f"- {_md(row.skill)}: {shown}")
    return "\n".join(lines) + "\n"


def _reasons(row: SkillClasses) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in sorted(row.reasons.items())) or "–"


def _md(text: str) -> str:
    """``text`` safe in a Markdown table cell or list item (one line, no cell break)."""
    return json.dumps(text)[1:-1].replace("|", "\\|").replace("`", "'")


def _csv(table: Sequence[SkillClasses]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["skill", "turns", *TURN_CLASSES, "never_listed_in_full", "reasons"])
    for row in table:
        counts = [row.classes[c] for c in TURN_CLASSES]
        writer.writerow([row.skill, row.turns, *counts, row.never_in_full, _reasons(row)])
    return buffer.getvalue()
