"""Packing: many cases in one agent start-up where they cannot interact.

Cases carry distinct name prefixes (``f012-…``), so a pack of them lists each as it would be
listed alone; the pack is kept budget-free (the agent's budget variable lifted, else kept
well under the listing's budgets read from its record). Size and budget cases, whose point
is the budget, get a capture each.
"""

from __future__ import annotations

from collections.abc import Sequence

from skillbench.agentspec import AgentSpec
from skillbench.fuzz._types import FuzzCase, FuzzCatalog, FuzzUnit

LIFTED_BUDGET = "10000000"
"""The budget variable's value in a pack: more characters than any pack lists."""
UNBUDGETED_CHARS = 12_000
"""What a pack may list (an estimate) for an agent whose budget cannot be lifted by a
variable and whose record names none (its own rules: a share of the model's window)."""
ENTRY_OVERHEAD = 160
"""Characters an entry adds to its description in an estimate (name, path, markup)."""


def pack_limit(spec: AgentSpec) -> int | None:
    """The listed characters a pack keeps under (None: no limit, the budget is lifted)."""
    fmt = spec.listing
    limits = []
    if fmt is not None and fmt.overflow is not None:
        limits.append(fmt.overflow.budget)
    if fmt is not None and fmt.first_line_cut is not None:
        limits.append(fmt.first_line_cut.threshold)
    if limits:
        return min(limits) // 2
    return None if spec.launch.budget_variable else UNBUDGETED_CHARS


def _estimate(unit: FuzzUnit) -> int:
    return sum(ENTRY_OVERHEAD + min(len(f.data), 1100) for f in unit.files)


def pack_cases(
    spec: AgentSpec, cases: Sequence[FuzzCase], max_skills: int = 200
) -> list[FuzzCatalog]:
    """The captures of ``cases``: packs of the packable ones (at most ``max_skills`` skill
    files and ``pack_limit`` characters each, one case of each ``solo`` key), then one per
    case that must be alone."""
    limit = pack_limit(spec)
    lifted = {spec.launch.budget_variable: LIFTED_BUDGET} if spec.launch.budget_variable else {}
    packs: list[list[FuzzCase]] = []
    for case in (c for c in cases if not c.alone):
        size = sum(_estimate(u) for u in case.units)
        for pack in packs:
            units = [u for c in pack for u in c.units]
            skills = FuzzCatalog("", tuple(units)).skill_files
            chars = sum(_estimate(u) for u in units)
            fits = skills + len(case.units) <= max_skills and (
                limit is None or chars + size <= limit
            )
            if fits and (case.solo is None or all(c.solo != case.solo for c in pack)):
                pack.append(case)
                break
        else:
            packs.append([case])
    catalogs = [
        FuzzCatalog(f"pack-{i:02d}", tuple(u for c in pack for u in c.units), lifted)
        for i, pack in enumerate(packs)
    ]
    catalogs += [
        FuzzCatalog(f"case-{c.index:03d}-{c.shape.replace(':', '-')}", c.units, c.env, c.usage)
        for c in cases
        if c.alone
    ]
    return catalogs
