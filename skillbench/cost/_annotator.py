"""The replay engine's hook: cost columns on each row, a ``cost`` object on each summary cell."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from skillbench.cost._model import CostModel
from skillbench.cost._rows import RequestIndex, SkillLookup, annotate_rows, cell_cost
from skillbench.dataset import LabelledRequest
from skillbench.replay._types import ANNOTATORS
from skillbench.selectors import Decision, Query

if TYPE_CHECKING:
    from skillbench.replay import RunConfig


class CostAnnotator:
    """Adds ``inline_tokens``/``fork_tokens``/``declared_tokens`` and the cell ``cost`` object.

    Catalogs come from ``load(variant, profile)`` rather than from the rows annotated in this
    run, so a resumed run's kept rows enter the cell totals exactly as in an uninterrupted run.
    """

    def __init__(
        self,
        cost_model: CostModel,
        requests: Sequence[LabelledRequest],
        load: Callable[[str, str], SkillLookup],
    ) -> None:
        self.cost_model = cost_model
        self.requests = RequestIndex(requests)
        self._load = load
        self._catalogs: dict[tuple[str, str], SkillLookup] = {}

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
        key = (row["catalog"], row["profile"])
        if key not in self._catalogs:
            self._catalogs[key] = self._load(*key)
        return self._catalogs[key]


@ANNOTATORS.register("cost")
def cost_annotator(config: RunConfig, requests: Sequence[LabelledRequest]) -> CostAnnotator:
    """Costs under the config's ``cost:`` section (tokenizer: the run's ``token_model``)."""
    section = {"model": config.token_model, **config.cost.model_dump(exclude_none=True)}
    from skillbench.replay import load_variant

    return CostAnnotator(
        CostModel(**section),
        requests,
        lambda variant, profile: load_variant(config, variant, profile),
    )
