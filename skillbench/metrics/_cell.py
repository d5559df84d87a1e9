"""The parts of a summary cell computed from its results rows, beyond the registered rates."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from skillbench.metrics._intervals import rate, wilson_json
from skillbench.types import INVOKED, Record, expected_shown

if TYPE_CHECKING:
    from skillbench.types import ResultRow


class PositionStats(Record):
    """Accuracy on completed positives whose expected skill sat at one listing position."""

    n: int
    """Positives with the expected skill at this position."""
    accuracy: float | None
    """Share of them where the expected skill was invoked."""
    accuracy_ci: list[float] | None
    """95% Wilson interval of `accuracy`."""


class SkillStats(Record):
    """How one skill fared in a cell: as the wanted skill and as the chosen one."""

    n: int
    """Requests accepting the skill."""
    recall: float | None
    """Share of those handled correctly."""
    recall_ci: list[float] | None
    """95% Wilson interval of `recall`."""
    chosen: int
    """Times the skill was invoked."""
    precision: float | None
    """Share of those invocations that were correct."""
    precision_ci: list[float] | None
    """95% Wilson interval of `precision`."""


def counted_rows(rows: Sequence[ResultRow]) -> list[ResultRow]:
    """The rows a summary counts: the test split when any row was used for calibration;
    positive controls never (they are counted apart, in the cell's ``controls``)."""
    rows = [r for r in rows if not r.control]
    if any(r.split == "train" for r in rows):
        return [r for r in rows if r.split == "test"]
    return rows


def by_position(positives: Sequence[ResultRow]) -> dict[str, PositionStats]:
    """Accuracy on positives by the 0-based listing position of the expected skill.

    Keys are positions as strings in numeric order; hidden expected skills have no position.
    """
    groups: dict[int, list[bool]] = {}
    for r in positives:
        if r.gold_position is not None:
            groups.setdefault(r.gold_position, []).append(r.outcome == "correct_skill")
    return {
        str(p): PositionStats(
            n=len(hits),
            accuracy=rate(sum(hits), len(hits)),
            accuracy_ci=wilson_json(sum(hits), len(hits)),
        )
        for p, hits in sorted(groups.items())
    }


def per_skill(rows: Sequence[ResultRow]) -> dict[str, SkillStats]:
    """Per skill name: requests accepting it, recall (those handled correctly), times
    invoked and precision (invocations that were correct)."""
    wanted: Counter[str] = Counter()
    recalled: Counter[str] = Counter()
    picked: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for r in rows:
        correct = r.outcome == "correct_skill"
        for name in set(r.expected):
            wanted[name] += 1
            recalled[name] += correct
        if r.chosen is not None and r.outcome in INVOKED:
            picked[r.chosen] += 1
            right[r.chosen] += correct
    return {
        name: SkillStats(
            n=wanted[name],
            recall=rate(recalled[name], wanted[name]),
            recall_ci=wilson_json(recalled[name], wanted[name]),
            chosen=picked[name],
            precision=rate(right[name], picked[name]),
            precision_ci=wilson_json(right[name], picked[name]),
        )
        for name in sorted(set(wanted) | set(picked))
    }


def confusion(rows: Sequence[ResultRow]) -> dict[str, dict[str, int]]:
    """Counts of ``{expected: {chosen: n}}`` with ``none`` for no skill, over the decisions
    whose expected skill was shown (``not_shown`` counts the others).

    The expected label is the chosen name when it was acceptable, else the first expected
    name; an unusable answer is labelled ``<malformed>`` or ``<error>`` rather than ``none``.
    """
    table: dict[str, Counter[str]] = {}
    for r in rows:
        if not expected_shown(r):
            continue
        expected, chosen = r.expected, r.chosen
        if r.outcome in ("malformed", "error") and chosen is None:
            col = f"<{r.outcome}>"
        else:
            col = chosen if chosen is not None else "none"
        row = chosen if chosen in expected else (expected[0] if expected else "none")
        table.setdefault(str(row), Counter())[col] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(table.items())}


def not_shown(rows: Sequence[ResultRow]) -> dict[str, int]:
    """Decisions whose expected skill the listing did not show, by that skill (the first
    expected name): left out of ``confusion``, as no description could have helped them."""
    counts = Counter(r.expected[0] for r in rows if not expected_shown(r))
    return dict(sorted(counts.items()))
