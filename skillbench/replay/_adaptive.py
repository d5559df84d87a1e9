"""Adaptive repeats: a request's repeats stop once more of them cannot change its verdict.

A request's verdict under the trigger rule is whether its trigger rate over ``repeats``
samples reaches the threshold. After ``n`` answered repeats with ``c`` triggers the rate a
full run would find lies between ``c/N`` and ``(c + N - n)/N``; once both ends fall on one
side of the threshold, the repeats left cannot change the verdict and are skipped. The rate
over the repeats made stays on that side (``c/n >= c/N`` and ``c/n <= (c + N - n)/N``), so the
summary's threshold verdicts equal those of full repeats. A repeat without an answer is not
known yet: it settles nothing.

``ci_width`` adds a statistical stop: once the 95% Wilson interval of the rate over the
answered repeats is at most that wide. Its verdicts may differ from full repeats; the
certain stop never does.

Repeat ``r`` of a request waits until repeats ``0 … r-1`` of it have finished, so the calls
saved are real calls never made. The row that settles a request lists the repeats skipped
after it (``detail["repeats_skipped"]``). A skipped repeat invokes nothing: a cell whose
listings follow its own choices records no usage for it, as the viewer's replay does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from skillbench.dataset import LabelledRequest
from skillbench.metrics import RequestRepeats, wilson
from skillbench.replay._results import StepKey
from skillbench.replay._types import Cell
from skillbench.results import ResultRow
from skillbench.types import UNANSWERED, CellKey

SKIPPED = "repeats_skipped"
"""The ``detail`` key of the row that settled its request: the repeats it made unnecessary."""

Gate = Literal["ask", "wait", "skip"]
"""What a repeat of a request does now: ask its selector, wait for earlier repeats, or
nothing at all (its verdict is settled)."""


@dataclass(frozen=True)
class AdaptiveRepeats:
    """The ``repeats_mode: adaptive`` settings of a run.

    Attributes:
        ci_width: also stop once the trigger rate's 95% Wilson interval is this narrow
            (None: only when the verdict cannot change).
    """

    ci_width: float | None = None


def settled(
    triggered: int, answered: int, repeats: int, threshold: float, ci_width: float | None
) -> bool:
    """Whether ``triggered`` of ``answered`` repeats (of ``repeats``) decide the verdict."""
    unknown = repeats - answered
    if triggered / repeats >= threshold or (triggered + unknown) / repeats < threshold:
        return True
    if ci_width is None or answered == 0:
        return False
    low, high = wilson(triggered, answered)
    return high - low <= ci_width


class RepeatGate:
    """Decides, from the rows finished so far, whether a repeat of a request is asked.

    ``rows`` is the run's live map of finished rows (kept ones included), so a resumed run
    skips exactly what its answered rows settle.
    """

    def __init__(
        self,
        rule: AdaptiveRepeats,
        repeats: int,
        thresholds: Mapping[str, float],
        cells: Sequence[Cell],
        rows: Mapping[StepKey, ResultRow],
    ) -> None:
        self.rule = rule
        self.repeats = repeats
        self.thresholds = thresholds
        self.rows = rows
        self.siblings: dict[CellKey, list[int]] = {}
        for cell in sorted(cells, key=lambda c: c.repeat):
            self.siblings.setdefault(cell.key, []).append(cell.index)

    def check(self, cell: Cell, index: int, request: LabelledRequest) -> Gate:
        """Repeat ``cell.repeat`` of the request at ``index``: ask, wait or skip."""
        tally = RequestRepeats(request.id, request.positive)
        for earlier in self.siblings[cell.key][: cell.repeat]:
            row = self.rows.get(StepKey(earlier, index))
            if row is None:
                return "wait"
            if self._settles(cell.key, tally, row):
                return "skip"
        return "ask"

    def mark(self, cell: Cell, index: int, row: ResultRow) -> ResultRow:
        """``row`` (repeat ``cell.repeat``, just finished), listing the repeats it settles."""
        left = range(cell.repeat + 1, self.repeats)
        if not left:
            return row
        tally = RequestRepeats(row.request_id, bool(row.expected))
        for earlier in self.siblings[cell.key][: cell.repeat]:
            found = self.rows.get(StepKey(earlier, index))
            if found is None or self._settles(cell.key, tally, found):
                return row  # settled before (or resumed without its earlier repeats)
        if not self._settles(cell.key, tally, row):
            return row
        return row.model_copy(update={"detail": {**row.detail, SKIPPED: list(left)}})

    def _settles(self, key: CellKey, tally: RequestRepeats, row: ResultRow) -> bool:
        """Add ``row`` to ``tally``; whether the request's verdict is now settled."""
        if row.outcome not in UNANSWERED:
            tally.add(row.outcome)
        threshold = self.thresholds[key.selector]
        return settled(tally.triggered, tally.n, self.repeats, threshold, self.rule.ci_width)


def skipped_repeats(rows: Sequence[ResultRow]) -> int:
    """Repeats the adaptive mode did not ask for: the calls it saved."""
    return sum(len(row.detail.get(SKIPPED) or ()) for row in rows)
