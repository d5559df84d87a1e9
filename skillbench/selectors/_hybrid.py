"""The ``hybrid`` selector: the agent-skills dispatcher, without its LLM step.

The dispatcher ranks skills by (keyword hit, embedding similarity), keeps the top 5 and lets
the main model confirm one; the more specific (higher ``priority``) skill wins when several
match. Offline there is no model to confirm, so among the top candidates a skill *matches*
when a keyword hit or its cosine reaches ``threshold``, and the match with the highest
(keyword hit, priority, cosine) is invoked; no match abstains.

Keyword hits follow the dispatcher's documented test, ``any(k in request for k in
trigger_keywords)``: each keyword is an exact, case-sensitive substring of the request
(``URL`` does not hit "fetch this url"), and a skill without keywords never hits by keyword;
it can still match by cosine. A missing ``priority`` counts as 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from skillbench.listing import ListedSkill
from skillbench.selectors._embedder import Embedder
from skillbench.selectors._embedding import EMBEDDING_PARAMS, make_embedder, similarities
from skillbench.selectors._params import check_params, positive_int_param
from skillbench.selectors._registry import SELECTORS
from skillbench.selectors._threshold import Choice, ThresholdSelector, with_threshold
from skillbench.selectors._types import Query, Selector, SelectorEnv

DEFAULT_TOP_K = 5


@dataclass(frozen=True, slots=True)
class DispatchScores:
    """One query's dispatcher inputs for each shown entry, in listing order."""

    names: tuple[str, ...]
    cosines: np.ndarray
    hits: np.ndarray
    priorities: np.ndarray


def keyword_hit(entry: ListedSkill, request: str) -> bool:
    """Whether one of the skill's trigger keywords occurs, exactly as written, in ``request``.

    An empty keyword would be a substring of every request, so it never counts.
    """
    return any(k and k in request for k in entry.skill.trigger_keywords)


class HybridSelector(ThresholdSelector[DispatchScores]):
    """Keyword hits, then embedding top-k, then priority; abstains when nothing matches."""

    name = "hybrid"

    def __init__(
        self, embedder: Embedder, threshold: float | None = None, top_k: int = DEFAULT_TOP_K
    ) -> None:
        self.embedder = embedder
        self.threshold = threshold
        self.top_k = top_k

    def prepare(self, texts: Sequence[str]) -> None:
        self.embedder.embed(list(dict.fromkeys(texts)))

    def score(self, queries: Sequence[Query]) -> list[DispatchScores]:
        out = []
        for q, sims in zip(queries, similarities(self.embedder, queries), strict=True):
            shown = q.listing.shown
            hits = np.array([keyword_hit(e, q.request.text) for e in shown], dtype=bool)
            priorities = np.array([e.skill.priority or 0 for e in shown], dtype=np.float64)
            out.append(DispatchScores(sims.names, sims.values, hits, priorities))
        return out

    def _candidates(self, scores: DispatchScores) -> np.ndarray:
        """Indices of the top-k by (keyword hit, cosine), best first (the dispatcher's ranking)."""
        return np.lexsort((-scores.cosines, ~scores.hits))[: self.top_k]

    def decide(self, scores: DispatchScores, threshold: float) -> Choice:
        candidates = self._candidates(scores)
        detail = {"candidates": [scores.names[i] for i in candidates], "keyword_hit": False}
        matches = [i for i in candidates if scores.hits[i] or scores.cosines[i] >= threshold]
        if not matches:
            best = float(scores.cosines[candidates[0]]) if candidates.size else None
            return Choice(None, best, detail)
        pick = max(matches, key=lambda i: (scores.hits[i], scores.priorities[i], scores.cosines[i]))
        detail["keyword_hit"] = bool(scores.hits[pick])
        return Choice(scores.names[pick], float(scores.cosines[pick]), detail)

    def cuts(self, scores: DispatchScores) -> Sequence[float]:
        return [float(scores.cosines[i]) for i in self._candidates(scores) if not scores.hits[i]]


@SELECTORS.register("hybrid")
def hybrid_selector(params: Mapping[str, Any], env: SelectorEnv) -> Selector:
    """Params: ``model``, ``threshold``, ``batch_size`` as for ``embedding``; ``top_k`` (5)."""
    spec = {**EMBEDDING_PARAMS, "top_k": (positive_int_param, DEFAULT_TOP_K)}
    p = check_params("hybrid", params, spec)
    selector = HybridSelector(make_embedder(p, env), top_k=p["top_k"])
    return with_threshold(selector, p["threshold"])
