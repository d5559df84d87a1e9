"""The replay engine's hook: cost columns on each row, a ``cost`` object on each summary cell."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skillbench.cost import CostModel, RequestIndex, SkillLookup, annotate_rows, cell_cost
from skillbench.dataset import LabelledRequest
from skillbench.replay._annotators import ANNOTATORS
from skillbench.replay._experiment import Experiment
from skillbench.replay._grid import Grid
from skillbench.types import Decision, Query


class CostAnnotator:
    """Adds ``inline_tokens``/``fork_tokens``/``declared_tokens`` and the cell ``cost`` object.

    Catalogs are the run's own, loaded once by the grid (by variant and profile), so a resumed
    run's kept rows enter the cell totals exactly as in an uninterrupted run.
    """

    def __init__(
        self,
        cost_model: CostModel,
        requests: Sequence[LabelledRequest],
        catalogs: Mapping[tuple[str, str], SkillLookup],
    ) -> None:
        self.cost_model = cost_model
        self.requests = RequestIndex(requests)
        self._catalogs = catalogs

    def annotate_row(
        self, row: Mapping[str, Any], query: Query, decision: Decision
    ) -> Mapping[str, Any]:
        out = dict(row)
        annotate_rows([out], self._catalog(row), self.requests, self.cost_model)
        return {k: out[k] for k in ("inline_tokens", "fork_tokens", "declared_tokens")}

    def annotate_cell(
        self, cell: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        if not rows:
            return {}
        return {"cost": cell_cost(rows, self._catalog(rows[0]), self.requests, self.cost_model)}

    def _catalog(self, row: Mapping[str, Any]) -> SkillLookup:
        return self._catalogs[row["catalog"], row["profile"]]


@ANNOTATORS.register("cost")
def cost_annotator(experiment: Experiment, grid: Grid) -> CostAnnotator:
    """Costs under the config's ``cost:`` section (tokenizer: the run's ``token_model``)."""
    return CostAnnotator(experiment.cost, grid.requests, grid.catalogs)
