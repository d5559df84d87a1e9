"""The ``repeats`` annotator: per-request trigger rates and pass^k on cells sampled k > 1 times."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skillbench._errors import InputError
from skillbench.metrics import DEFAULT_TRIGGER_THRESHOLD, group_repeats, repeat_metrics
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

    def __init__(self, thresholds: Mapping[str, float]) -> None:
        self.thresholds = thresholds

    def annotate_row(self, row: ResultRow, query: Query, decision: Decision) -> ResultRow:
        return row

    def annotate_cell(self, cell: CellFields, rows: Sequence[ResultRow]) -> CellFields:
        groups = list(group_repeats(rows).values())
        if not groups:
            return cell
        threshold = self.thresholds.get(cell.selector, DEFAULT_TRIGGER_THRESHOLD)
        return cell.model_copy(update={"repeats": repeat_metrics(groups[0], threshold)})


@ANNOTATORS.register("repeats")
def repeats_annotator(experiment: Experiment, grid: Grid) -> RepeatsAnnotator | None:
    """Takes part only when the config asks for more than one repeat."""
    if experiment.grid.repeats < 2:
        return None
    return RepeatsAnnotator({s.label: _trigger_threshold(s) for s in experiment.selectors})


def _trigger_threshold(selector: SelectorSpec) -> float:
    """The selector's ``trigger_threshold`` param, a number (reported at its config line)."""
    value = selector.params.get("trigger_threshold", DEFAULT_TRIGGER_THRESHOLD)
    try:
        if isinstance(value, int | float | str):
            return float(value)
    except ValueError:
        pass
    raise InputError(selector.where, f"trigger_threshold must be a number, not {value!r}")
