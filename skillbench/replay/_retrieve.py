"""Retrieve stages: a selector with ``retrieve`` sees a listing of its top-k skills only.

Each stage ranks every request of the run against the listable skills of a cell's catalog
once, before the replay (one vectorised pass per selector and catalog, shared by every cell
with that catalog whatever its budget, ordering or half-life). A cell then renders, per
request, the listing of just those ``k`` skills with its own renderer, budget and ordering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from skillbench._errors import InputError, SkillbenchError
from skillbench.dataset import LabelledRequest
from skillbench.listing import ListingPlan
from skillbench.replay._experiment import RetrieveStage, SelectorSpec
from skillbench.selectors import RETRIEVERS, Retriever, SelectorEnv, skill_text, top_k

TopK = Mapping[str, tuple[int, ...]]
"""Request id → catalog indices of its top-k skills, best first."""


class RetrieveStages:
    """The retrieve stages of a run's selectors, each ranking a catalog once."""

    def __init__(
        self,
        selectors: Sequence[SelectorSpec],
        env: SelectorEnv,
        requests: Sequence[LabelledRequest],
    ) -> None:
        self.stages = {sel.label: sel.retrieve for sel in selectors}
        self.env = env
        self.requests = requests
        self._retrievers: dict[str, Retriever] = {}
        self._ranked: dict[tuple[str, tuple[str, ...]], np.ndarray] = {}

    def top(self, selector: str, plan: ListingPlan) -> TopK | None:
        """Each request's top k under ``plan`` for ``selector`` (None: it has no stage)."""
        stage = self.stages[selector]
        if stage is None:
            return None
        texts = tuple(skill_text(plan.skills[i]) for i in plan.listable)
        key = (selector, texts)
        if key not in self._ranked:
            queries = [r.text for r in self.requests]
            self._ranked[key] = top_k(self._retriever(selector, stage), queries, texts, stage.k)
        catalog = np.asarray(plan.listable, dtype=np.int64)[self._ranked[key]]
        return {r.id: tuple(row.tolist()) for r, row in zip(self.requests, catalog, strict=True)}

    def _retriever(self, selector: str, stage: RetrieveStage) -> Retriever:
        """The stage's retriever; a param its method rejects is reported at its config line."""
        if selector not in self._retrievers:
            try:
                built = RETRIEVERS.get(stage.method)(stage.params, self.env)
            except SkillbenchError as exc:
                raise InputError(stage.where, str(exc)) from None
            self._retrievers[selector] = built
        return self._retrievers[selector]


class Retrieval(NamedTuple):
    """The results-row fields of a retrieve stage's pick for one request.

    Attributes:
        retrieved: how many skills it passed on.
        retrieved_ranks: the 1-based ranks among them of the expected skills it found.
        full_listing_tokens: tokens of the listing the cell would have shown without it.
    """

    retrieved: int
    retrieved_ranks: list[int]
    full_listing_tokens: int


def retrieval_fields(
    top: Sequence[int], plan: ListingPlan, request: LabelledRequest, full_tokens: int
) -> Retrieval:
    """What the retrieve stage's pick ``top`` for ``request`` adds to its row."""
    expected = set(request.expected)
    ranks = [r for r, i in enumerate(top, 1) if plan.skills[i].name in expected]
    return Retrieval(len(top), ranks, full_tokens)
