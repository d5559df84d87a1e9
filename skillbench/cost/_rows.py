"""Cost columns for results rows and the ``cost`` object of a summary cell.

The replay engine calls :func:`annotate_rows` once per cell (the catalog variant of that cell)
and :func:`cell_cost` when it writes the summary. Both derive every figure from the rows, the
catalog and the requests, so they always agree.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import SerializerFunctionWrapHandler, model_serializer

from skillbench._errors import SkillbenchError
from skillbench.catalog import ExecutionContext, Skill
from skillbench.cost._model import MODELLED, CostModel, DecisionCost, break_even_turns
from skillbench.cost._pricing import Pricing, pricing_for
from skillbench.dataset import LabelledRequest
from skillbench.types import NOT_RUN, UNWANTED, Record

if TYPE_CHECKING:
    from skillbench.types import ResultRow

FORK_SUMMARY_KEY = "fork_summary_tokens"
"""``row.detail[FORK_SUMMARY_KEY]``: a measured sub-agent summary size (tokens).

This is the extension point for actually running forks: whoever runs the sub-agent (a litellm
selector with ``execute_fork``) stores the size of its real answer here, and every cost figure of
that row uses it instead of :attr:`CostModel.summary_tokens`.
"""


class SkillLookup(Protocol):
    """Anything that finds a skill by the name a selector invoked (a ``Catalog``, a dict)."""

    def get(self, name: str, /) -> Skill | None: ...


class CostTotals(Record):
    """Summed cost of a group of decisions (a session or a cell).

    ``inline_*`` and ``fork_*`` are what-ifs over the invoked skills (every skill run one way);
    ``declared`` follows each skill's own ``context``. Main-context and all-token totals, and
    ``dollars``, include the listing. ``waste_tokens``: declared tokens of false invocations.
    Dollar figures are ``None`` when the model has no price, ``dollars_cached`` also when it
    has no cache price.
    """

    decisions: int
    """Decisions in the group."""
    invocations: int
    """Decisions whose invoked skill ran."""
    listing_tokens: int
    """Listing tokens, summed over the decisions."""
    inline_tokens: int
    """Tokens of the invoked skills, each run inline."""
    fork_tokens: int
    """Tokens of the invoked skills, each run in a sub-agent."""
    declared_tokens: int
    """Tokens of the invoked skills, each run as it declares."""
    main_context_tokens: int
    """Tokens the main conversation carries: listings plus the declared runs' share."""
    all_tokens: int
    """Listings plus every declared run."""
    waste_tokens: int
    """Declared tokens of invocations that should not have happened."""
    listing_dollars: float | int | None
    """Dollars of the listing tokens (an exact 0 stays an integer, as sums give it)."""
    inline_dollars: float | int | None
    """Dollars of the invoked skills run inline."""
    fork_dollars: float | int | None
    """Dollars of the invoked skills run in sub-agents."""
    dollars: float | int | None
    """Dollars of listings and declared runs."""
    dollars_cached: float | int | None
    """`dollars` with the listing read from the prompt cache."""


class MeasuredSummaries(Record):
    """Sub-agent summaries measured by running the forks."""

    n: int
    """Decisions with a measured summary."""
    mean_tokens: float
    """Their mean size in tokens."""


class SessionDigest(Record):
    """How the cell's cost spreads over its sessions."""

    n: int
    """Sessions (a request without one is its own)."""
    mean_main_context_tokens: float
    """Mean main-context tokens per session."""
    max_main_context_tokens: int
    """The largest session's main-context tokens."""
    mean_dollars: float | int | None
    """Mean dollars per session (null without a price)."""


class InvokedSkillCost(Record):
    """What one skill's invocations in a cell cost."""

    invocations: int
    """Times it ran."""
    declared: ExecutionContext
    """Its declared execution context."""
    inline_tokens: int
    """Tokens of its runs, inline."""
    fork_tokens: int
    """Tokens of its runs, forked."""
    inline_tokens_mean: float
    """Mean inline tokens per run."""
    fork_tokens_mean: float
    """Mean forked tokens per run."""
    break_even_turns: int | None
    """Median remaining turns from which fork is cheaper (null: mostly never)."""


class CellCost(CostTotals):
    """The ``cost`` section of a summary cell: totals, model assumptions, a session digest."""

    model: str
    """Model whose tokenizer and prices were used."""
    horizon: int | None
    """Fixed remaining-turn horizon (null: each session's own)."""
    fork_system_prompt_tokens: int
    """Assumed system prompt of a sub-agent."""
    fork_work_tokens: int
    """Assumed work of a sub-agent beyond the skill."""
    summary_tokens: int
    """Assumed size of a sub-agent's summary."""
    fork_constants: str | None = None
    """What the three fork constants rest on when measured (`measured on my-agent 1.2.0`,
    from `skillbench cost --measure`); absent: modelled (defaults or the config's)."""
    measured_summaries: MeasuredSummaries | None
    """Summaries measured by running forks (null: none)."""
    sessions: SessionDigest
    """Per-session spread."""
    per_skill: dict[str, InvokedSkillCost]
    """Invoked skill → its cost."""

    @model_serializer(mode="wrap")
    def _modelled_unsaid(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Modelled constants leave ``fork_constants`` out: runs read as they were written."""
        data = handler(self)
        if isinstance(data, dict) and data.get("fork_constants") is None:
            data.pop("fork_constants", None)
        return data


def remaining_turns(requests: Iterable[LabelledRequest]) -> dict[str, int]:
    """Request id → turns left in its session, the current one included (1 without a session).

    Turns are the requests' ``turn`` fields, or their order in the file when unset.
    """
    sessions: dict[str, list[tuple[int, str]]] = defaultdict(list)
    result: dict[str, int] = {}
    for request in requests:
        if request.session is None:
            result[request.id] = 1
        else:
            turns = sessions[request.session]
            turns.append((len(turns) if request.turn is None else request.turn, request.id))
    for turns in sessions.values():
        ordered = sorted(turn for turn, _ in turns)
        for turn, request_id in turns:
            result[request_id] = len(ordered) - bisect_left(ordered, turn)
    return result


class RequestIndex:
    """Requests by id with their remaining turns, computed once for many rows.

    It also remembers every decision cost worked out against it: a replay costs the same
    (skill, request) pair in many cells, and again for the summary.
    """

    def __init__(self, requests: Iterable[LabelledRequest]) -> None:
        self.requests = list(requests)
        self.by_id = {r.id: r for r in self.requests}
        self.remaining = remaining_turns(self.requests)
        self.costs: dict[tuple[Any, ...], DecisionCost] = {}


Requests = Sequence[LabelledRequest] | RequestIndex
"""Every function taking requests accepts a prepared :class:`RequestIndex` too."""


def annotate_rows(
    rows: Iterable[ResultRow],
    catalog: SkillLookup,
    requests: Requests,
    cost_model: CostModel,
) -> list[ResultRow]:
    """The rows with ``inline_tokens``, ``fork_tokens`` and ``declared_tokens`` filled.

    Each is ``None`` when the row invoked nothing or a name the catalog does not hold.
    """
    rows = list(rows)
    costs = decision_costs(rows, catalog, requests, cost_model)
    return [
        row.model_copy(
            update={
                "inline_tokens": None if cost is None else cost.inline_tokens,
                "fork_tokens": None if cost is None else cost.fork_tokens,
                "declared_tokens": None if cost is None else cost.declared_tokens,
            }
        )
        for row, cost in zip(rows, costs, strict=True)
    ]


def decision_costs(
    rows: Sequence[ResultRow],
    catalog: SkillLookup,
    requests: Requests,
    cost_model: CostModel,
) -> list[DecisionCost | None]:
    """The cost of each row's invoked skill (``None``: nothing ran).

    Nothing runs for a name the listing did not show exactly (``hallucinated``, a case
    variant included, as the agent answers "Unknown skill" to it), so it costs nothing.
    """
    index = requests if isinstance(requests, RequestIndex) else RequestIndex(requests)
    costs: list[DecisionCost | None] = []
    for row in rows:
        chosen = row.chosen
        ran = chosen and row.outcome not in NOT_RUN
        skill = catalog.get(chosen) if chosen and ran else None
        if skill is None:
            costs.append(None)
            continue
        request_id = row.request_id
        measured = row.detail.get(FORK_SUMMARY_KEY)
        summary = None if measured is None else int(measured)
        key = (cost_model, skill, request_id, row.session, summary)
        cost = index.costs.get(key)
        if cost is None:
            request = index.by_id.get(request_id)
            cost = index.costs[key] = cost_model.decision(
                skill,
                remaining_turns=cost_model.horizon or index.remaining.get(request_id, 1),
                args=request.args if request else None,
                request=request.text if request else "",
                session_id=row.session,
                summary_tokens=summary,
            )
        costs.append(cost)
    return costs


def _pairs(
    rows: Sequence[ResultRow],
    catalog: SkillLookup,
    requests: Requests,
    cost_model: CostModel,
) -> list[_Pair]:
    """Each row with its decision cost."""
    return list(zip(rows, decision_costs(rows, catalog, requests, cost_model), strict=True))


def session_costs(
    rows: Sequence[ResultRow],
    catalog: SkillLookup,
    requests: Requests,
    cost_model: CostModel,
) -> dict[str, CostTotals]:
    """Totals per session (``"<repeat>/<session>"``; a request without session is its own)."""
    return _by_session(_pairs(rows, catalog, requests, cost_model), _pricing(cost_model.model))


def cell_cost(
    rows: Sequence[ResultRow],
    catalog: SkillLookup,
    requests: Requests,
    cost_model: CostModel,
) -> CellCost:
    """The ``cost`` section of one summary cell: totals, model assumptions, a session digest.

    Dollar figures are ``None`` when litellm's cost map has no price for the model.
    ``per_skill`` breaks the invocations down by invoked skill (see :func:`per_skill_costs`).
    """
    pricing = _pricing(cost_model.model)
    pairs = _pairs(rows, catalog, requests, cost_model)
    sessions = list(_by_session(pairs, pricing).values())
    main = [s.main_context_tokens for s in sessions]
    dollars = [s.dollars for s in sessions if s.dollars is not None]
    return CellCost(
        model=cost_model.model,
        horizon=cost_model.horizon,
        fork_system_prompt_tokens=cost_model.fork_system_prompt_tokens,
        fork_work_tokens=cost_model.fork_work_tokens,
        summary_tokens=cost_model.summary_tokens,
        fork_constants=None if cost_model.basis == MODELLED else cost_model.basis,
        measured_summaries=_measured_summaries(rows),
        **dict(_totals(pairs, pricing)),
        sessions=SessionDigest(
            n=len(sessions),
            mean_main_context_tokens=sum(main) / len(main) if main else 0.0,
            max_main_context_tokens=max(main, default=0),
            mean_dollars=sum(dollars) / len(dollars) if dollars else None,
        ),
        per_skill=per_skill_costs(pairs, catalog),
    )


def _measured_summaries(rows: Sequence[ResultRow]) -> MeasuredSummaries | None:
    """Count and mean of the sub-agent summaries measured with ``execute_fork`` (else None)."""
    sizes = [size for r in rows if isinstance(size := r.detail.get(FORK_SUMMARY_KEY), int | float)]
    return MeasuredSummaries(n=len(sizes), mean_tokens=sum(sizes) / len(sizes)) if sizes else None


def per_skill_costs(pairs: Sequence[_Pair], catalog: SkillLookup) -> dict[str, InvokedSkillCost]:
    """Invoked skill → invocations, inline/fork token sums and means, declared mode and the
    median break-even (remaining turns from which fork is cheaper; ``None``: mostly never).

    Break-even varies per decision with the request and arguments; the median counts
    "never" as infinitely late, so one huge request cannot make a skill look fork-worthy.
    """
    groups: dict[str, list[DecisionCost]] = defaultdict(list)
    for row, cost in pairs:
        skill = catalog.get(row.chosen) if cost is not None and row.chosen else None
        if cost is not None and skill is not None:
            groups[skill.name].append(cost)
    out: dict[str, InvokedSkillCost] = {}
    for name in sorted(groups):
        costs = groups[name]
        turns = sorted(break_even_turns(c) or math.inf for c in costs)
        middle = turns[(len(turns) - 1) // 2]
        inline, fork = sum(c.inline_tokens for c in costs), sum(c.fork_tokens for c in costs)
        out[name] = InvokedSkillCost(
            invocations=len(costs),
            declared=costs[0].declared,
            inline_tokens=inline,
            fork_tokens=fork,
            inline_tokens_mean=inline / len(costs),
            fork_tokens_mean=fork / len(costs),
            break_even_turns=None if middle == math.inf else int(middle),
        )
    return out


_Pair = tuple["ResultRow", DecisionCost | None]


def _pricing(model: str) -> Pricing | None:
    try:
        return pricing_for(model)
    except SkillbenchError:
        return None


def _by_session(pairs: Sequence[_Pair], pricing: Pricing | None) -> dict[str, CostTotals]:
    groups: dict[str, list[_Pair]] = defaultdict(list)
    for row, cost in pairs:
        session = row.session or f"request:{row.request_id}"
        groups[f"{row.repeat}/{session}"].append((row, cost))
    return {key: _totals(group, pricing) for key, group in groups.items()}


def _totals(pairs: Sequence[_Pair], pricing: Pricing | None) -> CostTotals:
    listing = [row.listing_tokens or 0 for row, _ in pairs]
    invoked = [(row, cost) for row, cost in pairs if cost is not None]
    costs = [cost for _, cost in invoked]
    return CostTotals(
        decisions=len(pairs),
        invocations=len(costs),
        listing_tokens=sum(listing),
        inline_tokens=sum(c.inline_tokens for c in costs),
        fork_tokens=sum(c.fork_tokens for c in costs),
        declared_tokens=sum(c.declared_tokens for c in costs),
        main_context_tokens=sum(listing) + sum(c.main_tokens(c.declared) for c in costs),
        all_tokens=sum(listing) + sum(c.declared_tokens for c in costs),
        waste_tokens=sum(c.declared_tokens for row, c in invoked if row.outcome in UNWANTED),
        **_dollars(listing, costs, pricing),
    )


def _dollars(
    listing: Sequence[int], costs: Sequence[DecisionCost], pricing: Pricing | None
) -> dict[str, float | None]:
    if pricing is None:
        return dict.fromkeys(
            ("listing_dollars", "inline_dollars", "fork_dollars", "dollars", "dollars_cached")
        )

    def total(cache: bool) -> float:
        return sum(pricing.carried(n, 1, cache=cache) for n in listing) + sum(
            c.dollars(pricing, c.declared, cache=cache) for c in costs
        )

    return {
        "listing_dollars": sum(listing) * pricing.input,
        "inline_dollars": sum(c.dollars(pricing, "inline") for c in costs),
        "fork_dollars": sum(c.dollars(pricing, "fork") for c in costs),
        "dollars": total(cache=False),
        "dollars_cached": total(cache=True) if pricing.cached else None,
    }
