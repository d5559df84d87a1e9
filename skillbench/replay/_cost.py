"""The replay engine's hook: cost columns on each row, a ``cost`` object on each summary cell."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skillbench.cost import CostModel, RequestIndex, SkillLookup, annotate_rows, cell_cost
from skillbench.dataset import LabelledRequest
from skillbench.replay._annotators import ANNOTATORS
from skillbench.replay._experiment import Experiment
from skillbench.replay._grid import Grid
from skillbench.results import CellFields, ResultRow
from skillbench.selectors import Query
from skillbench.types import CellKey, Decision


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

    def annotate_row(self, row: ResultRow, query: Query, decision: Decision) -> ResultRow:
        return annotate_rows([row], self._catalog(row), self.requests, self.cost_model)[0]

    def annotate_cell(self, cell: CellFields, rows: Sequence[ResultRow]) -> CellFields:
        if not rows:
            return cell
        cost = cell_cost(rows, self._catalog(cell), self.requests, self.cost_model)
        return cell.model_copy(update={"cost": cost})

    def _catalog(self, key: CellKey) -> SkillLookup:
        return self._catalogs[key.catalog, key.profile]


@ANNOTATORS.register("cost")
def cost_annotator(experiment: Experiment, grid: Grid) -> CostAnnotator:
    """Costs under the config's ``cost:`` section (tokenizer: the run's ``token_model``)."""
    return CostAnnotator(experiment.cost, grid.requests, grid.catalogs)
