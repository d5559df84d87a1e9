"""Skill authors' trigger eval sets, read as labelled requests for one skill.

Two shapes are read, the ones skill-creator and the Agent Skills guide use:
``[{"query": "...", "should_trigger": true}, ...]`` and ``{"evals": [{"prompt": "...",
"should_trigger": false}, ...]}``. Items with ``expected_output`` and no ``should_trigger``
are output evals (what the skill should produce once running); they are counted and left
out. A should-not query means "this skill must not fire"; another skill firing on it is
not a failure of this skill unless the item says ``"none_should_trigger": true``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench._io import read_text
from skillbench.dataset import InputErrors, LabelledRequest
from skillbench.evalsets._json import loads_json_lines

EVALS_DIR = "evals"
"""The folder inside a skill where its eval sets live."""

TEXT_KEYS = ("query", "prompt")


@dataclass(frozen=True, slots=True)
class TriggerQuery:
    """One labelled query of a skill's trigger set.

    Attributes:
        text: what the user says.
        should_trigger: whether the skill should fire on it.
        none_should_trigger: a should-not query on which any skill firing is a failure.
        file / line: where the query is written, for errors and annotations.
        index: 1-based position among the set's trigger queries (its request id suffix).
    """

    text: str
    should_trigger: bool
    file: str
    line: int | None
    index: int
    none_should_trigger: bool = False

    @property
    def location(self) -> Location:
        return Location(self.file, self.line)


@dataclass(frozen=True, slots=True)
class TriggerSet:
    """Every trigger query of one skill, and how many output evals its files also held."""

    skill: str
    skill_dir: Path
    files: tuple[str, ...]
    queries: tuple[TriggerQuery, ...]
    output_evals: int = 0

    def request_id(self, query: TriggerQuery) -> str:
        return f"{self.skill}#{query.index}"

    def requests(self) -> list[LabelledRequest]:
        """The queries as labelled requests: should-trigger ones expect the skill, the others
        expect nothing; ``extra`` keeps the skill and the query's label for scoring."""
        return [
            LabelledRequest(
                id=self.request_id(q),
                text=q.text,
                expected=(self.skill,) if q.should_trigger else (),
                tags=("should-trigger" if q.should_trigger else "should-not-trigger",),
                source=str(q.location),
                extra={"skill": self.skill, "none_should_trigger": q.none_should_trigger},
            )
            for q in self.queries
        ]


def _items(data: Any, name: str) -> tuple[list[Any], int | None]:
    if isinstance(data, list):
        return data, 1
    if isinstance(data, Mapping) and isinstance(data.get("evals"), list):
        return data["evals"], getattr(data, "line", None)
    raise InputError(
        Location(name, getattr(data, "line", 1)),
        'expected a list of queries or an object with an "evals" list',
    )


def _query(item: Any, name: str, index: int) -> TriggerQuery | InputError | None:
    """The item as a query, an error at its line, or None for an output eval."""
    line = getattr(item, "line", None)
    if not isinstance(item, Mapping):
        return InputError(Location(name, line), "each eval must be an object")
    keys = [k for k in TEXT_KEYS if k in item]
    if "should_trigger" not in item and "expected_output" in item:
        return None
    if len(keys) != 1:
        reason = "give the text as 'query' or 'prompt'" + (", not both" if keys else "")
        return InputError(Location(name, line, "query"), reason)
    text = item[keys[0]]
    if not isinstance(text, str) or not text.strip():
        return InputError(Location(name, line, keys[0]), "must be a non-empty string")
    label = item.get("should_trigger")
    if not isinstance(label, bool):
        return InputError(Location(name, line, "should_trigger"), "required: true or false")
    strict = item.get("none_should_trigger", False)
    if not isinstance(strict, bool) or (strict and label):
        reason = "true or false, and true only on a query that should not trigger"
        return InputError(Location(name, line, "none_should_trigger"), reason)
    return TriggerQuery(text.strip(), label, name, line, index, strict)


def read_trigger_file(
    path: Path, first_index: int = 1, skill: str | None = None
) -> tuple[list[TriggerQuery], int]:
    """The trigger queries of one eval file and its count of output evals.

    Raises:
        InputErrors: every bad item, each with file and line; unreadable or invalid JSON; a
            ``skill_name`` other than ``skill``.
    """
    name = str(path)
    data = loads_json_lines(read_text(path).text, name)
    items, _ = _items(data, name)
    queries: list[TriggerQuery] = []
    problems: list[InputError] = []
    declared = data.get("skill_name") if isinstance(data, Mapping) else None
    if skill is not None and declared is not None and declared != skill:
        where = Location(name, data.line, "skill_name")
        problems.append(InputError(where, f"the set is for {declared!r}, not {skill!r}"))
    outputs = 0
    for item in items:
        parsed = _query(item, name, first_index + len(queries))
        if parsed is None:
            outputs += 1
        elif isinstance(parsed, InputError):
            problems.append(parsed)
        else:
            queries.append(parsed)
    if problems:
        raise InputErrors(problems)
    return queries, outputs


def _check_duplicates(queries: Sequence[TriggerQuery]) -> None:
    first: dict[str, TriggerQuery] = {}
    problems = []
    for q in queries:
        key = " ".join(q.text.lower().split())
        if key in first:
            problems.append(
                InputError(
                    Location(q.file, q.line, "query"),
                    f"the same query as {first[key].location}; each query counts once",
                )
            )
        first.setdefault(key, q)
    if problems:
        raise InputErrors(problems)


def eval_files(skill_dir: Path) -> list[Path]:
    """The JSON files of ``skill_dir/evals``, sorted by name."""
    folder = skill_dir / EVALS_DIR
    return sorted(p for p in folder.glob("*.json") if p.is_file()) if folder.is_dir() else []


def load_trigger_set(skill: str, skill_dir: Path, files: Sequence[Path] = ()) -> TriggerSet:
    """Skill ``skill``'s trigger set from ``files`` (default: every JSON file of its
    ``evals/`` folder; files holding only output evals contribute nothing).

    Raises:
        InputErrors: a bad item, with file and line.
        SkillbenchError: no trigger query at all (``skillbench init`` writes a set).
    """
    paths = list(files) or eval_files(skill_dir)
    queries: list[TriggerQuery] = []
    outputs = 0
    used: list[str] = []
    for path in paths:
        found, ignored = read_trigger_file(path, len(queries) + 1, skill)
        queries += found
        outputs += ignored
        if found:
            used.append(str(path))
    _check_duplicates(queries)
    if not queries:
        where = ", ".join(map(str, paths)) or f"{skill_dir / EVALS_DIR}/*.json"
        raise SkillbenchError(
            f"skill {skill!r} has no trigger queries in {where}; "
            f"write some, or scaffold a set with `skillbench init {skill_dir}`"
        )
    return TriggerSet(skill, skill_dir, tuple(used), tuple(queries), outputs)
