"""The ``repeats`` annotator: per-request trigger rates and pass^k on cells sampled k > 1 times."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skillbench._errors import InputError
from skillbench.metrics import DEFAULT_TRIGGER_THRESHOLD, group_repeats, repeat_metrics
from skillbench.replay._adaptive import skipped_repeats
from skillbench.replay._annotators import ANNOTATORS
from skillbench.replay._experiment import Experiment, SelectorSpec
from skillbench.replay._grid import Grid
from skillbench.results import CellFields, ResultRow
from skillbench.selectors import Query
from skillbench.types import Decision


class RepeatsAnnotator:
    """Adds a ``repeats`` object to each summary cell; rows are left as they are.

    The trigger threshold is the selector's ``trigger_threshold`` param (skill-creator's 0.5
    by default): a request counts as triggering when its trigger rate reaches it.
    """

    def __init__(self, thresholds: Mapping[str, float], adaptive: bool = False) -> None:
        self.thresholds = thresholds
        self.adaptive = adaptive

    def annotate_row(self, row: ResultRow, query: Query, decision: Decision) -> ResultRow:
        return row

    def annotate_cell(self, cell: CellFields, rows: Sequence[ResultRow]) -> CellFields:
        groups = list(group_repeats(rows).values())
        if not groups:
            return cell
        threshold = self.thresholds.get(cell.selector, DEFAULT_TRIGGER_THRESHOLD)
        stats = repeat_metrics(groups[0], threshold)
        if self.adaptive:
            stats = stats.model_copy(update={"mode": "adaptive", "skipped": skipped_repeats(rows)})
        return cell.model_copy(update={"repeats": stats})


@ANNOTATORS.register("repeats")
def repeats_annotator(experiment: Experiment, grid: Grid) -> RepeatsAnnotator | None:
    """Takes part only when the config asks for more than one repeat."""
    if experiment.grid.repeats < 2:
        return None
    return RepeatsAnnotator(trigger_thresholds(experiment), experiment.adaptive is not None)


def trigger_thresholds(experiment: Experiment) -> dict[str, float]:
    """Each selector's trigger threshold, by selector label."""
    return {s.label: _trigger_threshold(s) for s in experiment.selectors}


def _trigger_threshold(selector: SelectorSpec) -> float:
    """The selector's ``trigger_threshold`` param, a number (reported at its config line)."""
    value = selector.params.get("trigger_threshold", DEFAULT_TRIGGER_THRESHOLD)
    try:
        if isinstance(value, int | float | str):
            return float(value)
    except ValueError:
        pass
    raise InputError(selector.where, f"trigger_threshold must be a number, not {value!r}")
