"""The replay engine's hook: cost columns on each row, a ``cost`` object on each summary cell."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from skillbench.catalog import Skill, normalize_name
from skillbench.cost._model import CostModel
from skillbench.cost._rows import RequestIndex, annotate_rows, cell_cost
from skillbench.dataset import LabelledRequest
from skillbench.replay._types import ANNOTATORS
from skillbench.selectors import Decision, Query

if TYPE_CHECKING:
    from skillbench.replay import RunConfig


class _Skills(dict[str, Skill]):
    """Catalog skills by normalised name, filled from the listings the engine renders."""

    def get(self, name: str, default: Skill | None = None, /) -> Skill | None:  # type: ignore[override]
        return super().get(normalize_name(name), default)


class CostAnnotator:
    """Adds ``inline_tokens``/``fork_tokens``/``declared_tokens`` and the cell ``cost`` object.

    A listing carries every catalog skill (shown or not), so the annotator learns each
    catalog from the listings of the rows it annotates; rows kept by ``--resume`` keep the
    columns written earlier but only rows annotated in this run enter the cell totals.
    """

    def __init__(self, cost_model: CostModel, requests: Sequence[LabelledRequest]) -> None:
        self.cost_model = cost_model
        self.requests = RequestIndex(requests)
        self._catalogs: dict[tuple[str, str], _Skills] = {}

    def annotate_row(
        self, row: Mapping[str, Any], query: Query, decision: Decision
    ) -> Mapping[str, Any]:
        catalog = self._catalog(row)
        if not catalog:
            catalog.update((e.skill.key, e.skill) for e in query.listing.entries)
        out = dict(row)
        annotate_rows([out], catalog, self.requests, self.cost_model)
        return {k: out[k] for k in ("inline_tokens", "fork_tokens", "declared_tokens")}

    def annotate_cell(
        self, cell: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]
    ) -> Mapping[str, Any]:
        if not rows:
            return {}
        return {"cost": cell_cost(rows, self._catalog(rows[0]), self.requests, self.cost_model)}

    def _catalog(self, row: Mapping[str, Any]) -> _Skills:
        return self._catalogs.setdefault((row["catalog"], row["profile"]), _Skills())


@ANNOTATORS.register("cost")
def cost_annotator(config: RunConfig, requests: Sequence[LabelledRequest]) -> CostAnnotator:
    """Costs under the config's ``cost:`` section (tokenizer: the run's ``token_model``)."""
    section = {"model": config.token_model, **config.cost.model_dump(exclude_none=True)}
    return CostAnnotator(CostModel(**section), requests)
