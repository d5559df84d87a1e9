"""The replay engine's hook: cost columns on each row, a ``cost`` object on each summary cell."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skillbench.cost import (
    FORK_CONSTANTS,
    CostModel,
    RequestIndex,
    SkillLookup,
    annotate_rows,
    cell_cost,
    profile_calibration,
)
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
    run's kept rows enter the cell totals exactly as in an uninterrupted run. With
    ``calibrate``, a cell whose profile's agent version was measured (``cost --measure``)
    uses the measured fork constants, and its ``cost`` says so.
    """

    def __init__(
        self,
        cost_model: CostModel,
        requests: Sequence[LabelledRequest],
        catalogs: Mapping[tuple[str, str], SkillLookup],
        calibrate: bool = False,
    ) -> None:
        self.cost_model = cost_model
        self.requests = RequestIndex(requests)
        self._catalogs = catalogs
        self._calibrate = calibrate
        self._models: dict[str, CostModel] = {}

    def annotate_row(self, row: ResultRow, query: Query, decision: Decision) -> ResultRow:
        model = self._model(row)
        return annotate_rows([row], self._catalog(row), self.requests, model)[0]

    def annotate_cell(self, cell: CellFields, rows: Sequence[ResultRow]) -> CellFields:
        if not rows:
            return cell
        cost = cell_cost(rows, self._catalog(cell), self.requests, self._model(cell))
        return cell.model_copy(update={"cost": cost})

    def _model(self, key: CellKey) -> CostModel:
        if not self._calibrate:
            return self.cost_model
        if key.profile not in self._models:
            self._models[key.profile] = profile_calibration(key.profile, self.cost_model)
        return self._models[key.profile]

    def _catalog(self, key: CellKey) -> SkillLookup:
        return self._catalogs[key.catalog, key.profile]


@ANNOTATORS.register("cost")
def cost_annotator(experiment: Experiment, grid: Grid) -> CostAnnotator:
    """Costs under the config's ``cost:`` section (tokenizer: the run's ``token_model``);
    measured fork constants where the config sets none and a calibration exists."""
    section = experiment.document.get("cost")
    given = isinstance(section, dict) and any(k in section for k in FORK_CONSTANTS)
    return CostAnnotator(experiment.cost, grid.requests, grid.catalogs, calibrate=not given)
